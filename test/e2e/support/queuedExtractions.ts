// Files sent with an extraction queued for them in the sandbox (`next-extraction`), from executions
// that run side by side: the sandbox hands queued extractions out in the order uploads reach it, so
// a file's extraction is queued only once the sandbox holds the previous file's upload. The rest of
// each execution (a claim's settle delay, the books' calls) overlaps the others'.

import type { RunningSandbox } from '../../../local-n8n/index.ts';
import { sleep } from './n8nAndSandbox.ts';

/** Sends through one gate; `send(queue, post)` queues the extraction, posts the file, answers its answer. */
export function queuedExtractions(sandbox: () => RunningSandbox) {
	let uploading: Promise<void> = Promise.resolve();
	return async function send<T>(queue: () => Promise<void>, post: () => Promise<T>): Promise<T> {
		const previous = uploading;
		let uploaded = () => {};
		uploading = new Promise<void>((resolve) => (uploaded = resolve));
		await previous;
		const documentsBefore = sandbox().state().documents.length;
		let answered = false;
		const answer = (async () => {
			try {
				await queue();
				return await post();
			} finally {
				answered = true;
			}
		})();
		// Until the sandbox holds one document more, or the request ended without one (it then fails).
		while (!answered && sandbox().state().documents.length <= documentsBefore) await sleep(20);
		uploaded();
		return await answer;
	};
}
