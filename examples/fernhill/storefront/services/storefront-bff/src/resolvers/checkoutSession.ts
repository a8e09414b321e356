// checkoutSession resolver of api:storefront-graphql (component:storefront-bff).
// Consumed by component:checkout-web; branding is cached 60 s per merchant account.
import type { Resolvers } from '../generated/graphql';
import { brandingCache } from '../cache';

export const checkoutSessionResolvers: Resolvers = {
  Query: {
    async checkoutSession(_parent, { id }, ctx) {
      const session = await ctx.sessions.get(id);
      if (!session) return null;
      // Sessions expire after CHECKOUT_SESSION_TTL_HOURS (24); checkout-web must use the same value.
      const branding = await brandingCache.get(session.merchantAccountId, () => ctx.merchants.branding(session.merchantAccountId));
      return { ...session, branding };
    },
  },
};
