// component:payments-gateway, POST /v3/charges of api:payments-gateway-api.
// Card data never reaches this class: the request holds a token from component:card-tokenizer.
package io.fernhill.gateway

import io.fernhill.gateway.acquirer.AcquirerRouter
import io.fernhill.gateway.events.PaymentEventPublisher
import io.fernhill.gateway.idempotency.IdempotencyStore

class ChargeController(
    private val router: AcquirerRouter,
    private val idempotency: IdempotencyStore,
    private val events: PaymentEventPublisher,
) {
    fun create(idempotencyKey: String, request: ChargeRequest): ChargeResponse {
        // Same key and same body: return the stored answer (the caller's pod may have died
        // after we charged). Same key, different body: 409, never a second charge.
        idempotency.lookup(idempotencyKey, request.fingerprint())?.let { return it }

        require(request.amountMinor > 0) { "amount_minor must be positive" }
        val result = router.authorise(request) // Adyen first, Stripe when Adyen is failing over
        val response = ChargeResponse.from(result)
        idempotency.store(idempotencyKey, request.fingerprint(), response, ttlHours = 72)

        // Published on resource:payments-queue as payments.charge.v1 (api:payment-events);
        // ledger-service and billing-worker consume it.
        events.publish(result.toStateChangedEvent())
        return response
    }
}
