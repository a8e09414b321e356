/** Cancellation helpers shared by the embedders. */

/** The error an aborted call rejects with: the signal's reason, or an `AbortError`. */
export function abortError(signal: AbortSignal | undefined): Error {
  const reason: unknown = signal?.reason;
  if (reason instanceof Error) return reason;
  const err = new Error(typeof reason === 'string' ? reason : 'embeddings: the operation was aborted');
  err.name = 'AbortError';
  return err;
}

/** True for the errors an aborted embedding call rejects with. */
export function isAbortError(err: unknown): boolean {
  return err instanceof Error && err.name === 'AbortError';
}
