/* eslint-disable @n8n/community-nodes/no-restricted-globals -- sandbox/test code runs in plain Node, never inside n8n */
/** One JSON line per request and delivery. Never an API key, a secret or a signature. */

export type LogSink = (line: string) => void;

export function makeLogger(
	option: boolean | LogSink | undefined,
): (record: Record<string, unknown>) => void {
	const sink: LogSink | undefined =
		typeof option === 'function'
			? option
			: option === false
				? undefined
				: (line) => process.stdout.write(`${line}\n`);
	return (record) => {
		if (!sink) return;
		sink(JSON.stringify({ time: new Date().toISOString(), ...record }));
	};
}
