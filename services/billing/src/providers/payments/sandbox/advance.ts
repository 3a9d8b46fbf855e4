// Advancing the sandbox clock, as Stripe's test clocks do: time moves to each moment something is due
// (a period end, a payment retry) in order, and that subscription's renewal or retry runs then, so one
// jump of a year renews a monthly subscription twelve times with the right dates.
import type { SandboxContext } from './context';
import type { SubscriptionDoc } from './records';
import { currentPeriodEnd, nextDue, runDue } from './subscriptions';

/** At most five years in one step (a typo of seconds for milliseconds would otherwise spin for long). */
export const MAX_ADVANCE_SECONDS = 5 * 366 * 86_400;

/** `subscription` names whose period end to reach; without it, the first period end of any running one. */
export type AdvanceRequest = { seconds: number } | { to: 'period_end'; subscription?: string };

export async function advanceClock(
  ctx: SandboxContext,
  request: AdvanceRequest,
): Promise<{ error?: string; now: number }> {
  return ctx.exclusive(async () => {
    const subs = ctx.store.collection<SubscriptionDoc>('subscriptions');
    let target: number;
    if ('to' in request) {
      const running = await subs.find({ state: 'live' });
      const live = request.subscription ? running.filter((d) => d._id === request.subscription) : running;
      if (live.length === 0)
        return {
          error: request.subscription
            ? `Subscription ${request.subscription} is not running, so it has no period end to advance to.`
            : 'No subscription is running, so there is no period end to advance to.',
          now: ctx.clock.now(),
        };
      target = Math.min(...live.map((d) => currentPeriodEnd(d.object)));
    } else {
      target = ctx.clock.now() + request.seconds;
    }
    for (;;) {
      const live = await subs.find({ state: 'live' });
      const due = live
        .map((doc) => ({ doc, at: nextDue(doc) }))
        .filter((d): d is { doc: SubscriptionDoc; at: number } => d.at !== undefined && d.at <= target)
        .sort((a, b) => a.at - b.at)[0];
      if (!due) break;
      await ctx.clock.advanceTo(due.at);
      await runDue(ctx, due.doc._id, due.at);
    }
    await ctx.clock.advanceTo(target);
    return { now: ctx.clock.now() };
  });
}
