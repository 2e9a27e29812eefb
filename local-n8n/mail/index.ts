// The local mail servers (SMTP for what n8n sends, IMAP for what n8n's Email Trigger reads) and the
// emails a test writes or reads.
export * from './mimeMessage.ts';
export * from './smtpServer.ts';
export * from './smtpCredential.ts';
export * from './imapServer.ts';
export * from './maildir.ts';
export * from './composeMessage.ts';
export * from './sampleAttachments.ts';
export * from './mailViewer.ts';
