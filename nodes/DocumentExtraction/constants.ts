/**
 * Names of the package's nodes, as the node descriptions declare them. Workflows reference a node by
 * its type: the package name (package.json), a dot, this name.
 */
export const NODE_NAMES = {
	action: 'documentExtraction',
	trigger: 'documentExtractionTrigger',
} as const;

/** Name of the credential type both nodes use. */
export const CREDENTIAL_TYPE = 'documentExtractionApi';

/** Webhook events of the spec's Events table (docs/spec-decisions.md#d16: no others exist). */
export const WEBHOOK_EVENTS = ['document.verified', 'document.rejected'] as const;

/** Header carrying the delivery signature (compared case-insensitively, as HTTP headers are). */
export const SIGNATURE_HEADER = 'x-service-signature';

/** Paths of the spec's endpoints, relative to the credential's base URL. */
export const API_PATHS = {
	extract: '/v1/extract',
	status: (documentId: string) => `/v1/status/${encodeURIComponent(documentId)}`,
	registerWebhook: '/webhooks/register',
} as const;
