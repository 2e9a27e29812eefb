/**
 * n8n's deduplication store for unit tests: the same interface n8n's database-backed one implements
 * (IDataDeduplicator), kept in memory. Only mode "entries" is used by the nodes.
 */
import type {
	DeduplicationItemTypes,
	DeduplicationScope,
	ICheckProcessedContextData,
	IDataDeduplicator,
	IDeduplicationOutput,
} from 'n8n-workflow';

import { n8nCore } from './n8nModules.ts';

export class MemoryDeduplicator implements IDataDeduplicator {
	readonly contexts = new Map<string, string[]>();

	private key(scope: DeduplicationScope, contextData: ICheckProcessedContextData): string {
		return `${contextData.workflow.id}|${scope === 'node' ? `n:${contextData.node?.id ?? ''}` : ''}`;
	}

	async checkProcessedAndRecord(
		items: DeduplicationItemTypes[],
		scope: DeduplicationScope,
		contextData: ICheckProcessedContextData,
	): Promise<IDeduplicationOutput> {
		const seen = this.contexts.get(this.key(scope, contextData)) ?? [];
		this.contexts.set(this.key(scope, contextData), seen);
		const result: IDeduplicationOutput = { new: [], processed: [] };
		for (const item of items) {
			const value = String(item);
			if (seen.includes(value)) {
				result.processed.push(item);
			} else {
				seen.push(value);
				result.new.push(item);
			}
		}
		return result;
	}

	async removeProcessed(
		items: DeduplicationItemTypes[],
		scope: DeduplicationScope,
		contextData: ICheckProcessedContextData,
	): Promise<void> {
		const values = new Set(items.map(String));
		const seen = this.contexts.get(this.key(scope, contextData)) ?? [];
		this.contexts.set(
			this.key(scope, contextData),
			seen.filter((value) => !values.has(value)),
		);
	}

	async clearAllProcessedItems(
		scope: DeduplicationScope,
		contextData: ICheckProcessedContextData,
	): Promise<void> {
		this.contexts.delete(this.key(scope, contextData));
	}

	async getProcessedDataCount(
		scope: DeduplicationScope,
		contextData: ICheckProcessedContextData,
	): Promise<number> {
		return this.contexts.get(this.key(scope, contextData))?.length ?? 0;
	}
}

let deduplicator: MemoryDeduplicator | undefined;

/** The one store of this test process, registered with n8n-core's DataDeduplicationService. */
export async function useMemoryDeduplicator(): Promise<MemoryDeduplicator> {
	if (!deduplicator) {
		deduplicator = new MemoryDeduplicator();
		await n8nCore.DataDeduplicationService.init(deduplicator);
	}
	return deduplicator;
}
