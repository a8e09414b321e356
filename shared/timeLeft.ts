/**
 * How long a background job has left, in words, for the status item and the progress
 * notification: "a few seconds left", "about 40 s left", "about 3 min left". Seconds are rounded
 * to 5 (a count that changes every chunk would flicker), and no estimate is made up: the caller
 * passes one measured from the job's own rate.
 *
 * Imports nothing: the client and the server both compile against this file.
 */

/** Below this many seconds the estimate is "a few seconds". Default 10. */
export const FEW_SECONDS = 10;

export function timeLeft(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds < FEW_SECONDS) return 'a few seconds left';
  if (seconds < 90) return `about ${Math.max(FEW_SECONDS, Math.round(seconds / 5) * 5)} s left`;
  if (seconds < 90 * 60) return `about ${Math.round(seconds / 60)} min left`;
  return `about ${(seconds / 3600).toFixed(1)} h left`;
}
