// The body of a signed `document.verified` delivery as the service sends it, for the tests that
// deliver events to the trigger themselves.

/** A `document.verified` delivery body for `documentId`, timestamped now, verified by a reviewer. */
export function verifiedEventBody(
	documentId: string,
	event: { reviewId: string; header: Record<string, unknown>; originalConfidence: number },
): string {
	return JSON.stringify({
		event: 'document.verified',
		timestamp: new Date().toISOString(),
		document_id: documentId,
		review_id: event.reviewId,
		verified_by: 'human_reviewer',
		corrections_made: false,
		data: { header: event.header },
		confidence: { original: event.originalConfidence, final: 1 },
	});
}
