/* eslint-disable @n8n/community-nodes/no-restricted-imports -- sandbox/test code runs in plain Node, never inside n8n */
/** Documents and webhook registrations, in memory, optionally kept in a JSON file across restarts. */
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';

import type { DocumentKind, ExtractedData } from './extraction.ts';

/** Internal states; `rejected` is reported as `failed` by the status endpoint (docs/spec-decisions.md#d7). */
export type DocumentState = 'processing' | 'needs_review' | 'verified' | 'failed' | 'rejected';

export interface DocumentRecord {
	id: string;
	accountId: string;
	state: DocumentState;
	/** Confidence the extraction had (before any review). */
	confidence: number;
	finalConfidence?: number;
	reviewId?: string;
	data?: ExtractedData;
	verifiedBy?: 'ai_auto' | 'human_reviewer';
	correctionsMade?: boolean;
	webhookUrl?: string;
	fileName: string;
	kind: DocumentKind;
	size: number;
	sha256: string;
	createdAt: string;
	/** When the current step (processing or review) finishes by itself. */
	dueAt?: string;
	failureReason?: string;
	rejectionReason?: string;
}

export interface WebhookRecord {
	id: string;
	accountId: string;
	url: string;
	events: string[];
	secret: string;
	status: 'active';
	createdAt: string;
}

export interface StoreSnapshot {
	documents: DocumentRecord[];
	webhooks: WebhookRecord[];
}

export class Store {
	readonly documents = new Map<string, DocumentRecord>();

	readonly webhooks = new Map<string, WebhookRecord>();

	private readonly file: string | undefined;

	constructor(file?: string) {
		this.file = file;
		if (file && existsSync(file)) {
			const snapshot = JSON.parse(readFileSync(file, 'utf8')) as StoreSnapshot;
			for (const document of snapshot.documents ?? []) this.documents.set(document.id, document);
			for (const webhook of snapshot.webhooks ?? []) this.webhooks.set(webhook.id, webhook);
		}
	}

	/** Writes the file (atomically) when persistence is on. Called after every change. */
	save(): void {
		if (!this.file) return;
		const temporary = `${this.file}.tmp`;
		writeFileSync(temporary, JSON.stringify(this.snapshot(), null, 1));
		renameSync(temporary, this.file);
	}

	snapshot(): StoreSnapshot {
		return { documents: [...this.documents.values()], webhooks: [...this.webhooks.values()] };
	}

	documentByReview(reviewId: string): DocumentRecord | undefined {
		for (const document of this.documents.values())
			if (document.reviewId === reviewId) return document;
		return undefined;
	}

	clear(): void {
		this.documents.clear();
		this.webhooks.clear();
		this.save();
	}
}
