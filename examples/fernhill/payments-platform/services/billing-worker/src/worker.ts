// Entry point of component:billing-worker.
// Reads jobs from resource:payments-queue (payments-jobs.fifo) and dispatches them by type.
// Charges go through api:payments-gateway-api; outcomes are posted with api:ledger-api.
import { SQSClient, ReceiveMessageCommand, DeleteMessageCommand } from '@aws-sdk/client-sqs';
import { handleCycleClose } from './cycleClose';
import { handleChargeAttempt } from './chargeAttempt';
import { handleDunningStep } from './dunning/step';
import { config } from './config';
import { logger } from './logger';

type Job =
  | { type: 'cycle.close'; merchantAccountId: string; cycleDate: string }
  | { type: 'charge.attempt'; subscriptionId: string; cycleId: string; attempt: number }
  | { type: 'dunning.step'; subscriptionId: string; step: number };

const sqs = new SQSClient({});

export async function runHandler(signal: AbortSignal): Promise<void> {
  while (!signal.aborted) {
    const out = await sqs.send(
      new ReceiveMessageCommand({
        QueueUrl: config.queueUrl,
        MaxNumberOfMessages: 10,
        WaitTimeSeconds: 20,
        // Longer than the slowest gateway call, or a second pod picks the message up mid-charge.
        VisibilityTimeout: config.visibilityTimeoutSeconds,
      }),
    );
    for (const message of out.Messages ?? []) {
      const job = JSON.parse(message.Body ?? '{}') as Job;
      try {
        await dispatch(job);
        await sqs.send(new DeleteMessageCommand({ QueueUrl: config.queueUrl, ReceiptHandle: message.ReceiptHandle }));
      } catch (err) {
        // Leave the message: SQS re-delivers it, and after 5 receives it goes to the DLQ,
        // which fires BillingWorkerDLQNotEmpty.
        logger.error({ err, jobType: job.type }, 'job failed');
      }
    }
  }
}

async function dispatch(job: Job): Promise<void> {
  switch (job.type) {
    case 'cycle.close':
      return handleCycleClose(job.merchantAccountId, job.cycleDate);
    case 'charge.attempt':
      return handleChargeAttempt(job.subscriptionId, job.cycleId, job.attempt);
    case 'dunning.step':
      return handleDunningStep(job.subscriptionId, job.step);
  }
}
