// Checkout form of component:checkout-web.
// Card input is the gateway's hosted fields iframe (api:payments-gateway-api); this component
// only receives a token, so it stays out of PCI scope. Styling from component:ui-kit.
import { useState } from 'react';
import { Button, ErrorBanner } from '@fernhill/ui-kit';
import { useHostedFields } from '../lib/hostedFields';
import { useFlag } from '../lib/flags';

export function CheckoutForm({ sessionId, amountMinor, currency }: { sessionId: string; amountMinor: number; currency: string }) {
  const fields = useHostedFields(sessionId);
  const inline3ds = useFlag('checkout.3ds_inline.enabled');
  const [error, setError] = useState<string | null>(null);

  async function submit() {
    setError(null);
    // The iframe tokenises and charges; we get back a charge state, never card data.
    const result = await fields.submit({ challenge: inline3ds ? 'inline' : 'redirect' });
    if (result.state === 'declined') setError(messageFor(result.declineCode));
  }

  return (
    <form onSubmit={(e) => { e.preventDefault(); void submit(); }}>
      <div id="hosted-card-fields" />
      {error && <ErrorBanner>{error}</ErrorBanner>}
      <Button type="submit">Pay {formatMinor(amountMinor, currency)}</Button>
    </form>
  );
}

function messageFor(code: string | undefined): string {
  // Shopper-facing texts are agreed with support; see the voice guide in the workspace library.
  if (code === 'insufficient_funds') return 'Your card was declined. Try another card.';
  if (code === 'authentication_failed') return "Your bank couldn't confirm it was you. Try again or use another card.";
  return 'Your card was declined. Contact your bank or try another card.';
}

function formatMinor(amountMinor: number, currency: string): string {
  // TODO(STORE-1310): take the exponent from @fernhill/money; dividing by 100 is wrong for JPY and KWD.
  return new Intl.NumberFormat(undefined, { style: 'currency', currency }).format(amountMinor / 100);
}
