# FIFO queue plus DLQ. Used for resource:payments-queue (payments-jobs.fifo).
variable "name" { type = string }
variable "max_receive_count" {
  type    = number
  default = 5 # after 5 failed receives the message goes to the DLQ and pages the owner
}

resource "aws_sqs_queue" "dlq" {
  name                      = "${var.name}-dlq.fifo"
  fifo_queue                = true
  message_retention_seconds = 1209600 # 14 days, the SQS maximum: time to investigate
}

resource "aws_sqs_queue" "main" {
  name                        = "${var.name}.fifo"
  fifo_queue                  = true
  content_based_deduplication = false # producers set MessageDeduplicationId explicitly
  visibility_timeout_seconds  = 120
  redrive_policy = jsonencode({
    deadLetterTargetArn = aws_sqs_queue.dlq.arn
    maxReceiveCount     = var.max_receive_count
  })
}
