// Routes of api:invoice-rest-api served by component:invoice-api.
// Reads and writes resource:invoices-db; PDFs go to resource:invoice-pdfs.
import type { FastifyInstance } from 'fastify';
import { finalizeInvoice, InvoiceFinalizedError } from '../invoices/finalize';
import { requireMerchantScope } from '../auth';

export async function invoiceRoutes(app: FastifyInstance): Promise<void> {
  app.post<{ Params: { id: string } }>('/v2/invoices/:id/finalize', async (req, reply) => {
    const merchantAccountId = await requireMerchantScope(req, 'invoices:write');
    try {
      // The number is taken inside the same transaction (row lock on invoice_sequences),
      // so a crash here leaves no gap. See docs/numbering.md.
      const invoice = await finalizeInvoice(merchantAccountId, req.params.id);
      return reply.code(200).send(invoice);
    } catch (err) {
      if (err instanceof InvoiceFinalizedError) {
        return reply.code(409).send({ error: 'invoice_finalized', message: 'Finalised invoices cannot change; issue a credit note.' });
      }
      throw err;
    }
  });
}
