/** What the auth service needs from SMS delivery (MFA phone codes). */
export interface SmsMessage {
  /** E.164, e.g. +15551234567 */
  to: string;
  text: string;
}

export interface SmsSender {
  send(message: SmsMessage): Promise<void>;
}
