// The local mail server and the reading of what it received (the approval example's emails).
export * from './mimeMessage.ts';
export * from './smtpServer.ts';
export * from './smtpCredential.ts';
