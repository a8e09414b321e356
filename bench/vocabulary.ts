/**
 * The words generated workspaces are written in, most common first (rank 0 is the most frequent).
 *
 * The first 1,376 are the words of the example workspace (examples/fernhill: Markdown and YAML,
 * people's and the company's names and YAML keys left out) ordered by how often they occur there,
 * so the head of the distribution (function words, then domain nouns) reads like real engineering
 * docs. The rest are common words of infrastructure and service docs, in no particular order.
 * Frozen here, not read from the example at run time, so that a seed keeps producing the same
 * bytes when the example changes.
 */
const TEXT = `
the a and in for payments is to merchant on of team service default ledger name or with billing
type gateway card invoice component title description it from platform storefront charge by
production not are backstage an worker kind owner spec api metadata id alpha checkout dunning tags
at every merchants that never one what system money page deploy catalog flags per only search
account currency invoices dashboard code do new after data call when resource env services string
yaml first if its queue subscription no primary lifecycle minor number refund subscriber change how
up minutes summary day good key you decline sha time web amount bash before does each pipeline so
we charges run staging use your acquirer canary flag re test read through was attempt can declined
engineering go hosted refunds see then this as entry feature has must numbers rules back days email
info jobs message release rollback rotation runs two all auth due example github graphql incident
out request terraform their which always group idempotency over profile questions sandbox than user
amounts eu legacy month payment plans same codes credit cycle db docs fields index kit more next
open rate status tax them typescript alerts annotations bank both build captured date entities file
full library pull regions runbook schedule schema scope techdocs units writing add check close com
database declines epic hand migrations reference renderer repository still subscribers template
they ui usage be domain events keys mac own past pay payouts required runbooks token until window
accounts adyen another anything balance cards docker fees fifo here https ids infra instead last
line pdfs post promote requests tests tokenizer west who why about alert argo attempts folder limit
notices once owns parameters region second sessions show step text version again context draft
enabled entries fee guild hours internal job keep limits log make need notes off openapi opensearch
people plan pnpm postgres postmortem posts query react reads render sent set shopper state steps
support true us within without acquirers any ask behind bff but calls capture charged cycles
deploys developer end environment find i iframe into journal local needs notice our overview pages
pods responses rest rounding scale stay table templates ticket try value values vault workflows
against already app cannot challenge changes changing customer entity error event field finalised
get grpc identity inside install integer integers lead logo max messages part path postings project
rule slug stripe there tokens update architecture audit backwards because caller cardholder
cloudfront compatible compose decisions definition dir during export finance fires handbook hard
have js live logs may migration most nothing order paid pci point policy prod purpose reason
redrive sees send shared shoppers under url where working apply apps available body checking
children components configuration content contract conversion copy create cron dates design
different dlq east edit else environments everything fails filter fixed goal guide help holds hour
issuing laptop link links list localstack lock milestones moves named old org outside pagerduty
paused payout plus posting proto real releases rolling running secrets secure security serves setup
short site slack sre stable start stays store tables terms timeout today unit written adding
address analysis answers apis area backfill balances becomes between column country currencies
decision dev failed generated goes idempotent inline input kept kotlin layout least legal look main
matches meaning merge monday names node object parent paths pending planned product python queues
quote record records ref rendered replicas repo revenue review reviewed say scaffolder session
severity shadow should src starts stored subscriptions sum suspended three times total transaction
used variable voice action admin allowed asks below button cache calling changed chargebacks checks
closed contact core customers did done double errors experiment exponent facing finalise finding
form four freeze funds git groups happens header http image impact keeps lines location long lower
manual maximum mode modules monthly multi naming nav network note observability other owned owning
parts plugins progress properties replica req response returned roll says sends server share ship
shown shows side sign simulator slow small smart sql sub suspension take these tool top ts tsx
twice usually via void whose will work works actions affected also answer apple application asked
bad banker browser bucket built carries case central charging checklist clearing closes come comes
command commit confirmation correct covers created creates databases delay deprecated development
down driver emails engineer enough enum ever except expand experimental expired fallback false faq
files finalisation follow follows format give glossary handles handling healthy hold holding
incidents infrastructure initiated instructions issuer items kubernetes language later load logging
lost made match means memory merged minute nightly npm operations options orders original partial
pause paved pod publish put ran recon reconciliation recording recovery redis refunded rejected
removal renewals reporting reports retired retry returns reusing right road rolls root rotations
safe scheduled schedules sequences settlement shop smallest something source specs sqs stolen svc
sync target teams those timing traffic uncollectible valid versions went were whole wording
workspace yes yml zone above access across addresses advice age agents almost answered anywhere
appear append approval assign asyncapi authenticated authentication authorise authorised authorises
aws backend backoff boolean bootstrap branding broken builds business calculator captures carry
characters chart ci click cluster collection commerce company computed computes config configured
confirm considered console conventions could debit debits deleted details doing ends enqueues
enterprise envs even everyone exact exactly exponents expr faster final finalises finalize
finalized fit fix flow forward freezes frontend function gets glob grafana guidance guides had
handlers home honor human identify insufficient invalid issue itself kubectl labels lands largest
leads level lib like lint lives locale login longer looking mapping members metric metrics
milestone moving ms my namespace negotiated net numbering onboarding ones opentelemetry operation
outcome output packages pass persisted person please points prefix previous prints products
promotion public published publishes queries random receivable recommendations recover redriving
register rejects relevance remembered rendering renders requirements residency restart result
reverses reviewing rows rps scaling scans script secret sending separate sequence served setting
several shift single skeleton skip soft specific staff starting statement states stop stops studio
success successful symptom takes talk term timestamp toolchains tooling touch track turn updated
urls uses using visible warehouse watch website week writes wrong wrongly year yet yoga accent
actually affects allocate allocation analytics anonymised answering anyway applications applies
approvals approximate argocd arithmetic around assume atlantis attached attempted auditors
authorisation automatic automatically balanced banner bearer become belongs berlin beyond bills
blameless brand breaks brew broke bug calm cancelled cause causes cde challenges channels
chargeback checked chromium claim client collecting collector collects colour columns commander
commands common confirmed consumers consumes copies corrections correctness cost costs couldn count
cover credentials credits critical cronjob current custom cut dated deadline decimals delayed
delete delivery deployed deployment derive detection diffs digits directly display dispute division
document drafts drop dynamodb edge endpoint endpoints engineers epics escalating escalation
evaluate everywhere exception exempt exists expect expected explain failure fake falls fastapi
fetch fetching few fire five flat floating floats flows followed forever frankfurt fresh
frictionless front future fuzzy fx gap gen generic germany gives global globs grouped growth half
headers historical history hit honest house iframes immediately include int inv invisible issued
issues json jump kill knowing known label lag late leave linked lists localhost locally locked loki
low mandatory map markdown mastercard matching maxlength mean mechanics meet meeting mobile model
monorepo mostly mysql networks newest night non none normal noticed now occurred oidc okta older
oldest online otherwise ours outstanding overflow ownership paging passes pattern pausing pays pdf
peek percentage period permanent personal phantomjs pick picks pilot pin playwright portugal
postgresql preparing pricing print problems process processed processes processing prometheus
propose props provider px quarter quarterly quarters question quick rates reach reading rebuilt
receives recorded recovered refreshed refunding refuses relay relevant reliability remaining
repeated replaced replication repositories repost require requires resources retire return reusable
reused reversing reviewer rollbacks rollout rollouts rounded row saying scaffold seconds section
selling serve shipped shorter since snapshot some someone split splits stages stale storage stores
stream structured stuck submit succeed suggest switch switched talks tap targets task tell tested
throw timeouts tokenises told tone too touches touching tracks transition trivy truth turning turns
typed underscores unknown unmatched unsure updates upload usual variables view visa vitest waiting
waits way webhooks weekly whatever whether wide workflow would york abort aborted abstraction
accessor acknowledge acknowledged acquire acquired activate active activity adapter adapters
additive adjust administrator advisory aggregate aggregated aggregation aggregator agent alerting
alias aliases align allocated allocator allowlist alternate amortized annotate annotation anomaly
ansible antipattern appended appender archive archived archiving argument arguments array arrays
artifact artifacts assert assertion assertions asset assets async asynchronous atomic atomically
attach attachment attribute attributes authenticate authorization authorize autoscaler autoscaling
availability avoid await backlog backpressure backup backups bandwidth barrier baseline batch
batched batches batching benchmark benchmarks binary binding bindings bitmap blob blobs block
blocked blocking blocks bloom bookkeeping bottleneck bound boundary bounded bounds branch branches
breaker buffer buffered buffering buffers bulk bump bumped bundle bundled bundles bytes cached
caching callback callbacks callers canaries canonical capacity cardinality cascade cascading
catalogue certificate certificates chain chained changelog channel chaos checkpoint checkpoints
checksum checksums chunk chunked chunks circuit classifier classify cleanup clients clock clone
cloned closure clusters coalesce codec codecs cohort collision collisions commits committed
compaction compare comparison compatibility compile compiled compiler complexity compliance
compress compressed compression compute concurrency concurrent condition conditional conditions
conflict conflicts connect connection connections consensus consistency consistent constraint
constraints consume consumed consumer container containers contention contracts controller
controllers converge coordinator corrupt corrupted corruption coverage cpu crash crashed crashes
crashloop credential criteria cursor cursors cutover daemon daemons dashboards dataset datasets
deadlock deadlocks debounce debug debugging decode decoded decoder decommission decompress decouple
decrypt decrypted dedupe deduplicate deduplication defaults defer deferred degrade degraded
delegate deletion delimiter demote dependencies dependency deploying deployments deprecate
deprecation deque descriptor deserialize destination detect detected determinism deterministic
diagnose diagnostics diagram diff digest digests dimension dimensions directive directory disable
disabled disk disks dispatch dispatched dispatcher distributed distribution dns downgrade
downstream downtime drain drained draining drift driven drivers dry dump duplicate duplicates
durability durable duration dynamic eager egress elastic election emit emitted emitter empty enable
encode encoded encoder encoding encrypt encrypted encryption enforce enforced enqueue enqueued
entrypoint enumerate ephemeral epoch equality equivalent eventual eventually evict evicted eviction
exceeded exhausted exit expiry explicit exponential expose exposed extract extractor failover
failures fallbacks fanout fault faults feed feedback fencing fetched filesystem filtered filters
firewall flaky flush flushed footprint fork formatter formatting forwarded fragment fragmentation
framework frames frequency gateways gauge gauges generate generation generator getter gossip
graceful gracefully granularity graph graphs grow growing guarantee guarantees guard guardrail
handler handshake hash hashed hashes hashing healthcheck heap heartbeat heartbeats helm helper
helpers heuristic hierarchy histogram histograms hook hooks horizontal host hostname hosts hotfix
hotspot idle immutable implement implementation import imported imports inbound increment
incremental incrementally indexed indexer indexes indexing ingest ingestion ingress inherit
inheritance initial initialize inject injected injection inode insert inserted inserts inspect
instance instances instrument instrumentation integrity interface interfaces interval intervals
invalidate invalidation invariant invariants inventory invoke invoked isolate isolated isolation
iterate iteration iterator jitter join joins journald kafka kernel keyspace labelled latency
latencies layer layers lazy leader leaders leak leaks lease leases limiter linear lineage linger
listener listeners literal liveness loaded loader loading lockfile locks logger logical lookup
lookups loop loops lossless lossy mailbox maintainer maintenance manifest manifests marshal
marshalling master materialize materialized measure measured measurement median mempool merges mesh
method methods middleware migrate migrated milliseconds mirror mirrored mirroring misconfigured
mismatch mock mocked module monitor monitored monitoring mount mounted multiplex mutable mutation
mutations mutex namespaces nested nginx nodes normalise normalize nullable observer offline offset
offsets onboard opaque optimistic optimize orchestration orchestrator orphan orphaned outage
outages outbound overhead overload overloaded override overrides overwrite package packet packets
pagination paginate parallel parallelism parameter parse parsed parser parsing partition
partitioned partitioning partitions patch patched patches payload payloads peer peers percentile
percentiles perf performance permission permissions persist persistence persistent pessimistic
pinned pipe pipelines placeholder plaintext playbook plugin pointer poison policies poll polled
poller polling pool pooled pooling pools port ports postmortems precision predicate preemption
prefetch preflight prefixes preload prepare prepared primaries priority privilege privileges probe
probes producer producers profiler profiling program promise promises propagate propagation
protobuf protocol protocols provision provisioned provisioning proxy proxies prune pruned publisher
pubsub purge push pushed quarantine quorum quota quotas race racing rack ramp randomized range
ranges ranking rebalance rebalancing rebuild receipt receiver reconcile reconciler redact redacted
redeploy redirect redundancy refactor refactoring references referential refresh regex registry
regression reindex reject relational releasing reload remote remove removed rename renamed repair
replay replayed replicate replicated reproduce reproducible reset resilience resize resolve
resolved resolver restore restored resume resumed retain retention retried retries retrying revert
reverted revision revisions revoke revoked rewrite rollup rotate rotated routing runtime sampling
sandboxed sanitize saturation scanner schemas scheduler scoped scraper scrape sdk sealed searchable
secondary segment segments selector semaphore semantic semver sensitive serialization serialize
serialized serializer serverless sharded sharding shards shutdown sidecar signal signals signature
signed silent singleton sink sinks skew slice slices snapshots socket sockets sorted sorting spans
spike spikes spill spinlock spool stack stacktrace staged staleness standby startup stateful
stateless static statistics stderr stdout sticky storm strategy streaming streams strict subnet
subscribe suite supervisor swap swapped symlink synchronous syntax syslog tenant tenancy tenants
terminate terminated thread threads threshold thresholds throttle throttled throttling throughput
tickets tier tiers timeline timer timers tls toggle toggles tolerance topic topics topology trace
traced traces tracing trailing transactional transactions transform transformer transient transport
tree trees trigger triggered truncate truncated tunable tuning tuple txn unavailable undo unique
unlock unmarshal unpack unreachable unsafe unstable upgrade upgraded upgrades upsert upstream
uptime utilization validate validated validation validator vector vectors vendored verbose verify
verified versioned versioning vertical virtual volume volumes vulnerability waiter warm warmup
warning warnings watcher watchdog webhook websocket weight weighted weights wildcard workers
workload workloads wrapper write writer yield zero zones zookeeper accumulate acknowledgement
activation adaptive additional addressed adjacency admission advertise affinity afterwards
aggressive alarm alarms alerted allocations amend analyse analysed analyser analytic ancestor
anchor annotated announce anonymous applied approve approved arbitrary architectural archival
assignment assumed asymmetric attempting audited auditing authenticator authored authoritative
autocomplete automated automation auxiliary averaged awaiting backed backfilled backing balancer
balancers bandwidths beacon bidirectional billed binder bitrate blackout blocklist blue boot
bootstrapped bottom bracket breakdown breaking bridged brokers broker browsing bucketed buckets
budget budgets bugfix builder bypass byte caches calculated calendar callout cancel cancellation
capped capturing cascaded cataloged centralized certified chaining changeover characterize charted
checkbox cipher claims classification cleaned cleared cli closing coarse codebase collated
colocated combined committing comparable completed completion composed composite compressing
concatenate conditionally configurable conflicting conformance congestion connected connector
connectors consolidated constant constructor consult consumption containerized contiguous
continuous continuously contributor controlled converted convert cookie cookies coordinated copied
corrected correlate correlation counter counters coupling crawler creation crossover crypto cutoff
daily datacenter datastore deactivated deadlines debt decay decommissioned dedicated deduplicated
defaulted defined degradation delegated deliver delivered denied deny dependable deprovision
derived describe describes deserialized designated destroyed detached detector determine developers
device diagnostic dictionary differential digit disaster discard discarded disconnect discovery
dispatching displayed disposable distinct divergence divergent documented documentation domains
downloaded downloads duplicated dwell dynamo elapsed elected elevated eligible embedded emergency
encapsulated encountered enforcing enqueueing enriched enrollment entropy enumerated envelope
erased escalate escalated estimate estimated evaluated evaluation evicting examine exceeds exchange
exclusive executed execution executor exhaustion expanded expiration explained exported exporter
extended extension external extracted facade factor factory failing fallthrough feasible federated
fetcher fielded filtering fingerprint firmware flagged flapping fleet flushing folded forecast
formatted forwarder forwarding freed fulfil fulfilment functional gated gathered generations
goroutine graded grant granted guaranteed handoff hardened hardware headroom healthchecks
hierarchical highlight hosting hotkey hypothesis identical identifier identifiers idempotence
ignored imbalance impacted implemented inactive incoming inconsistent increased indicator indirect
inferred inflight informational infrequent ingested initialised initiator inlined inspected
installed instantiated integrated integration intent interactive intercept interleaved intermediate
intermittent interrupted introduced invalidated invocation isolating iterated journaled keyed
keyring landing latest launched layered leaked leftover lenient licensed limited listing
loadbalancer localized locking logged lookahead looped lowered machine maintained managed manager
mandate mapped marked masked matched materialised maximal merging metered migrating minimal minimum
mirrors missing mitigate mitigation mixed modified monotonic multiplier mutated negotiation
neighbour nodepool normalised notification notifications notified null numeric observed obsolete
occupancy offboard offloaded omitted opened operator operators optimised optional orchestrated
ordered ordering origin orphans outlier overlap overlay overridden packaged paged paired panic
parallelised parameterised participant passed passive patching peak percent permitted phase phased
pinning pipelined placement pluggable pointed populated portable positional posted powered
precomputed predicted preferred prefetched prepended preserved prevented principal prioritised
private probed procedure produced profiled projected promoted propagated proposed protected
provided proxied pruning pulled purged qualified quarantined queued quoted raised ranked rated
reached readiness realtime rebalanced rebooted received reclaimed recomputed reconnect reconnected
recreated recursive redacting redirected reduced redundant referenced regenerated regional
registered reinstated related relayed released relocated remapped remediation reopened reordered
repackaged reported represented requested rerun reserved resharded resident restarted restricted
resubmitted retained revalidated reversed rewritten rolled routed sampled saturated scaled scanned
scraped secured seeded segmented selected sequenced serialised shadowed shaped shed shortened
signalled simulated skipped sliced spawned specified spilled spread stabilised stalled standardised
started stashed steered streamed stripped submitted subscribed substituted succeeded summarised
superseded supported suppressed synchronised tagged tailored tiered timed toggled tracked traded
transferred translated trimmed tuned unbounded uncommitted undeployed unhealthy unified unlocked
unpacked unpinned unscheduled unsigned untracked unused uploaded warmed watched whitelisted widened
wired wrapped`;

/** The vocabulary by frequency rank, distinct, lower-case ASCII letters only. */
export const WORDS: readonly string[] = Object.freeze(TEXT.split(/\s+/).filter((w) => w.length > 0));
