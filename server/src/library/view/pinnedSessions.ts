/**
 * Which sessions already received the pinned documents (pinned.ts), so they head only the first
 * answer of each session. One per engine, held by the host's services (services/services.ts).
 */

/** Sessions remembered; the oldest are forgotten past this (long-lived HTTP servers). Default 10,000. */
export const MAX_PINNED_SESSIONS = 10_000;

export class PinnedSessions {
  private readonly served = new Set<string>();

  /** True until {@link markServed} was called for this session. */
  needs(sessionId: string): boolean {
    return !this.served.has(sessionId);
  }

  /** Records that `sessionId` received the pinned documents. */
  markServed(sessionId: string): void {
    this.served.add(sessionId);
    if (this.served.size > MAX_PINNED_SESSIONS) this.served.delete(this.served.values().next().value!);
  }
}
