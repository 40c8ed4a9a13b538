/** What the rest of the server needs from mail delivery; SMTP and the outbox folder implement it. */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  replyTo?: string;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
}
