// Dunning schedule for component:billing-worker.
// State lives in resource:invoices-db (table dunning_state); see docs/runbooks/dunning.md.

/** Decline codes after which charging again cannot succeed; only notices are sent. */
export const HARD_DECLINES = new Set(['lost_card', 'stolen_card', 'account_closed', 'do_not_honor_permanent']);

export interface DunningPlan {
  /** Days after the first decline on which the charge is attempted again. Default 1,3,7,14. */
  attemptDays: number[];
  /** Day on which a still past-due subscription is suspended. Default 21. */
  suspendAfterDays: number;
}

export function parsePlan(env: NodeJS.ProcessEnv): DunningPlan {
  const attemptDays = (env.DUNNING_SCHEDULE_DAYS ?? '1,3,7,14').split(',').map((d) => Number(d.trim()));
  const suspendAfterDays = Number(env.DUNNING_SUSPEND_AFTER_DAYS ?? 21);
  if (attemptDays.some((d) => !Number.isInteger(d) || d <= 0) || suspendAfterDays <= Math.max(...attemptDays)) {
    // Refuse to start rather than run a schedule that suspends before the last attempt.
    throw new Error(`Invalid dunning plan: DUNNING_SCHEDULE_DAYS=${env.DUNNING_SCHEDULE_DAYS} DUNNING_SUSPEND_AFTER_DAYS=${env.DUNNING_SUSPEND_AFTER_DAYS}`);
  }
  return { attemptDays, suspendAfterDays };
}

/** The next step after a decline on `step` (0 = the scheduled charge itself), or 'suspend'. */
export function nextStep(plan: DunningPlan, step: number, declineCode: string): number | 'suspend' | 'card-update' {
  if (HARD_DECLINES.has(declineCode)) return 'card-update';
  return step < plan.attemptDays.length ? step + 1 : 'suspend';
}
