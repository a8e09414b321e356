#!/usr/bin/env bash
# Makes the example workspace's labelled changes as real git commits and writes each commit's
# diff to ../diffs/fNN.diff (`git show --format=`): a copy of examples/fernhill in a temporary
# repository, one commit for the untouched example, then one commit per change below.
# Run from the repository root: bash bench/corpora/changes/fernhill/make-changes.sh
set -euo pipefail
root=$(pwd)
out="$root/bench/corpora/changes/diffs"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp -r "$root/examples/fernhill/." "$work/"
cd "$work"
git init -q -b main
git -c user.name=Fernhill -c user.email=dev@fernhill.io add -A
git -c user.name=Fernhill -c user.email=dev@fernhill.io commit -q -m "The example workspace as it is"
commit() {
  local id=$1; shift
  git add -A
  git -c user.name=Fernhill -c user.email=dev@fernhill.io commit -q -m "$*"
  git show --format= --no-ext-diff --no-textconv -M HEAD > "$out/$id.diff"
}
edit() { # edit FILE PYTHON-EXPRESSION-ON-s
  python3 - "$1" "$2" <<'PY'
import sys
path, expr = sys.argv[1], sys.argv[2]
s = open(path, encoding='utf-8').read()
t = eval(expr, {'s': s})
assert t != s, f'no change in {path}'
open(path, 'w', encoding='utf-8').write(t)
PY
}
BW=payments-platform/services/billing-worker
IA=payments-platform/services/invoice-api
LS=payments-platform/services/ledger-service

# f01: billing-worker's job loop logs the receive count and gives up on malformed messages.
edit $BW/src/worker.ts "s.replace(\"      const job = JSON.parse(message.Body ?? '{}') as Job;\", \"      let job: Job;\n      try {\n        job = JSON.parse(message.Body ?? '{}') as Job;\n      } catch (err) {\n        // A body that is not JSON never parses on a retry either: straight to the DLQ.\n        logger.error({ err, messageId: message.MessageId }, 'malformed job');\n        continue;\n      }\").replace(\"logger.error({ err, jobType: job.type }, 'job failed');\", \"logger.error({ err, jobType: job.type, receiveCount: message.Attributes?.ApproximateReceiveCount }, 'job failed');\")"
commit f01 "billing-worker: log the receive count of failed jobs, skip malformed messages"

# f02: dunning treats insufficient_funds as soft, with its own wait, and the runbook says so.
edit $BW/src/dunning/schedule.ts "s.replace(\"export interface DunningPlan {\", \"/** Soft declines worth waiting for: the next attempt moves to the subscriber's usual payday. */\nexport const PAYDAY_DECLINES = new Set(['insufficient_funds']);\n\nexport interface DunningPlan {\")"
edit $BW/docs/runbooks/dunning.md "s.replace(\"## Notifying the subscriber\", \"An \`insufficient_funds\` decline keeps its steps but moves the next attempt to the\nsubscriber's usual payday when we know it (the 1st or the 15th), never more than 5 days later.\n\n## Notifying the subscriber\", 1)"
commit f02 "billing-worker: wait for payday after insufficient_funds declines (smart dunning)"

# f03: the ledger API gets a statement call.
edit $LS/proto/ledger.proto "s.replace(\"  rpc ListEntries(ListEntriesRequest) returns (ListEntriesResponse);\n\", \"  rpc ListEntries(ListEntriesRequest) returns (ListEntriesResponse);\n  // Monthly statement of one account: opening balance, entries, closing balance.\n  rpc GetStatement(GetStatementRequest) returns (Statement);\n\")"
cat >> $LS/proto/ledger.proto <<'P'

message GetStatementRequest {
  string account = 1;
  string month = 2;          // YYYY-MM, in the account's reporting time zone
}

message Statement {
  string account = 1;
  string currency = 2;
  int64 opening_minor = 3;
  int64 closing_minor = 4;
  repeated Posting postings = 5;
}
P
commit f03 "ledger-api: GetStatement for monthly account statements"

# f04: invoice-api migration (expand step) for credit note reasons.
cat > $IA/migrations/20260301_add_credit_note_reason.sql <<'P'
-- 2026-03-01: why a credit note was issued (refund, goodwill, correction), for the revenue report.
-- Expand step only: nullable column, no default rewrite, safe while v2.6 pods still run.
SET lock_timeout = '2s';
ALTER TABLE credit_notes ADD COLUMN reason text NULL;
P
commit f04 "invoice-api: add credit_notes.reason (expand step)"

# f05: invoice-api's OpenAPI definition gets the credit note reason.
edit $IA/openapi.yaml "s.replace(\"      summary: Issue a credit note against a finalised invoice\n\", \"      summary: Issue a credit note against a finalised invoice\n      requestBody:\n        content:\n          application/json:\n            schema:\n              type: object\n              properties:\n                amount_minor: { type: integer }\n                reason: { type: string, enum: [refund, goodwill, correction] }\n\")"
commit f05 "invoice-rest-api: credit notes take a reason"

# f06: checkout-web's form shows the decline message next to the pay button.
edit storefront/apps/checkout-web/src/components/CheckoutForm.tsx "s.replace(\"  const [error, setError] = useState<string | null>(null);\", \"  const [error, setError] = useState<string | null>(null);\n  const [submitting, setSubmitting] = useState(false);\").replace(\"    setError(null);\n\", \"    setError(null);\n    setSubmitting(true);\n\").replace(\"    if (result.state === 'declined') setError(messageFor(result.declineCode));\n\", \"    setSubmitting(false);\n    if (result.state === 'declined') setError(messageFor(result.declineCode));\n\")"
commit f06 "checkout-web: disable the pay button while the hosted fields submit"

# f07: search-service ranks exact email matches like ids.
edit storefront/services/search-service/app/ranking.py "s.replace(\"ID_BOOST = 50.0\n\", \"ID_BOOST = 50.0\n# An exact email match is as good as an id: support tickets quote the subscriber's address.\nEMAIL_BOOST = ID_BOOST\n\")"
commit f07 "search-service: boost exact email matches like ids"

# f08: @fernhill/money rounds half to even on allocate's remainder.
edit payments-platform/libs/money/src/allocate.ts "s.replace(\"export const EXPONENTS: Readonly<Record<string, number>> = { JPY: 0, KRW: 0, KWD: 3, BHD: 3 };\", \"export const EXPONENTS: Readonly<Record<string, number>> = { JPY: 0, KRW: 0, KWD: 3, BHD: 3, OMR: 3, TND: 3 };\")"
commit f08 "fernhill-money: OMR and TND have three decimals"

# f09: the gateway's charge endpoint refuses a missing Idempotency-Key.
python3 - payments-platform/services/payments-gateway/src/main/kotlin/io/fernhill/gateway/ChargeController.kt <<'PY'
import sys, re
p = sys.argv[1]
s = open(p).read()
lines = s.split('\n')
# add a comment line after the first line of the class body, wherever it is
for i, l in enumerate(lines):
    if l.startswith(') {'):
        lines.insert(i + 1, '    // A charge without an Idempotency-Key is refused with 400 idempotency_key_missing.')
        break
else:
    raise SystemExit('no class line')
open(p, 'w').write('\n'.join(lines))
PY
commit f09 "payments-gateway: document that charges need an Idempotency-Key"

# f10: billing-worker's deploy runbook: the freeze window moves.
edit $BW/docs/runbooks/deploy.md "s.replace('On the 1st of the month the freeze runs until 06:00 UTC', 'On the 1st of the month the freeze runs until 07:00 UTC')"
commit f10 "billing-worker docs: the monthly deploy freeze ends at 07:00 UTC"

# f11: checkout-web's catalog entry gets its PagerDuty service.
python3 - storefront/catalog-info.yaml <<'PY'
import sys
p = sys.argv[1]
s = open(p).read()
i = s.index('  name: checkout-web')
j = s.index('    are iframes from the payments gateway so the app itself stays out of PCI scope.\n', i)
s = s[:j] + s[j:].replace('stays out of PCI scope.\n', 'stays out of PCI scope.\n    Payment links expire after 30 days.\n', 1)
open(p, 'w').write(s)
PY
commit f11 "checkout-web: the catalog description says payment links expire"

# f12: the refund policy page: refunds after a downgrade.
edit .context/reference/refund-policy.md "s.replace('14 days', '14 calendar days', 1)"
commit f12 "refund policy: the window is counted in calendar days"

# f13: the SQS module's DLQ threshold becomes a required input.
edit platform-infra/terraform/modules/sqs/main.tf "s.replace('  default = 5 # after 5 failed receives the message goes to the DLQ and pages the owner\n', '  default = 5 # after 5 failed receives the message goes to the DLQ and pages the owner\n  validation {\n    condition     = var.max_receive_count >= 3\n    error_message = \"max_receive_count below 3 sends healthy retries to the DLQ\"\n  }\n')"
commit f13 "sqs module: refuse a max_receive_count below 3"

# f14: billing-worker's alert rules: queue lag pages after 15 minutes.
edit platform-infra/alerts/billing-worker.rules.yaml "s.replace('> 900\n        for: 10m', '> 900\n        for: 15m', 1)"
commit f14 "alerts: BillingWorkerQueueLag waits 15 minutes before paging"

# f15: one change across billing-worker and invoice-api: hard declines mark the invoice.
edit $BW/src/dunning/schedule.ts "s.replace(\"export const HARD_DECLINES = new Set(['lost_card', 'stolen_card', 'account_closed', 'do_not_honor_permanent']);\", \"export const HARD_DECLINES = new Set(['lost_card', 'stolen_card', 'account_closed', 'do_not_honor_permanent', 'invalid_account']);\")"
edit $IA/src/routes/invoices.ts "s.replace(\"import { requireMerchantScope } from '../auth';\", \"import { requireMerchantScope } from '../auth';\nimport { markUncollectible } from '../invoices/uncollectible';\").replace(\"      throw err;\n    }\n  });\n\", \"      throw err;\n    }\n  });\n\n  // Called by component:billing-worker when a hard decline ends dunning.\n  app.post<{ Params: { id: string } }>('/v2/invoices/:id/mark-uncollectible', async (req, reply) => {\n    const merchantAccountId = await requireMerchantScope(req, 'invoices:write');\n    return reply.code(200).send(await markUncollectible(merchantAccountId, req.params.id));\n  });\n\")"
commit f15 "billing-worker, invoice-api: hard declines mark the invoice uncollectible"

# f16: ledger-service rejects postings in different currencies in one entry.
edit $LS/internal/posting/validate.go "s.replace('package posting\n', 'package posting\n\n// Entries mixing currencies are refused; a conversion is two entries through the FX account.\n', 1)"
commit f16 "ledger-service: document that one entry never mixes currencies"
echo "wrote $(ls "$out"/f*.diff | wc -l) diffs to $out"
