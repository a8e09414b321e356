"""Ranking for component:search-service (api:search-api).

Queries resource:search-index. One index per entity type: products, plans, subscribers.
"""
from dataclasses import dataclass

# Exact id matches (sub_..., prod_..., an email) must win over text relevance: merchants paste
# ids from support tickets and expect that record first.
ID_BOOST = 50.0
MAX_HITS = 50


@dataclass
class Hit:
    id: str
    score: float
    index: str


def build_query(merchant_account_id: str, q: str, index: str) -> dict:
    """OpenSearch query, always filtered to one merchant: tenants never see each other's data."""
    return {
        "size": MAX_HITS,
        "query": {
            "bool": {
                "filter": [{"term": {"merchant_account_id": merchant_account_id}}],
                "should": [
                    {"term": {"id": {"value": q, "boost": ID_BOOST}}},
                    {"term": {"email.keyword": {"value": q.lower(), "boost": ID_BOOST}}},
                    {"multi_match": {"query": q, "fields": ["name^3", "description", "plan_name^2"], "fuzziness": "AUTO"}},
                ],
                "minimum_should_match": 1,
            }
        },
    }
