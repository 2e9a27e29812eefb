/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- benchmark tooling runs in plain Node, never inside n8n */
// Aggregates V8 CPU profiles (`node --cpu-prof`, `.cpuprofile` files) into self time per function,
// per file and per package, and the time spent under each package's code (inclusive), optionally
// only between two instants. Used by profileWebhooks.ts; also a command of its own:
//
//   node bench/cpuProfile.ts <file.cpuprofile>... [--deliveries=N] [--top=15] [--from=µs] [--to=µs]
//     [--focus=functionName,…] [--under=package]
//
// --focus: time under each named function (`name`, or `name file` such as
// `saveStaticData n8n/dist/workflows/workflow-static-data.service.js`); --under: self time by
// function of the samples with a frame of that package on the stack.
// Several files (e.g. one per webhook process) are added together. --from/--to are V8 timestamps
// (µs of CLOCK_MONOTONIC on Linux, the clock of process.hrtime), so a window taken with hrtime in
// another process selects the same instants.

import { readFileSync } from 'node:fs';

interface CallFrame {
	functionName: string;
	url: string;
	lineNumber: number;
	columnNumber: number;
}

interface ProfileNode {
	id: number;
	callFrame: CallFrame;
	children?: number[];
}

export interface CpuProfile {
	nodes: ProfileNode[];
	startTime: number;
	endTime: number;
	samples: number[];
	timeDeltas: number[];
}

export interface Entry {
	name: string;
	ms: number;
	/** Share of the profile's busy (non-idle) time. */
	share: number;
}

export interface ProfileSummary {
	/** Wall time covered, ms (the window, or the whole profile). */
	wallMs: number;
	/** Time the thread was busy: everything but (idle), ms. */
	busyMs: number;
	idleMs: number;
	gcMs: number;
	/** (program): V8 and native work outside any JavaScript function. */
	programMs: number;
	/** busyMs / deliveries, when deliveries are given. */
	busyMsPerDelivery?: number;
	selfByFunction: Entry[];
	selfByFile: Entry[];
	selfByPackage: Entry[];
	/** Time with at least one frame of the package on the stack (a sample counts once per package). */
	inclusiveByPackage: Entry[];
	/** Time under each function named in `focus` (`name` or `name file`), when asked. */
	inclusiveByFocus?: Entry[];
	/** Self time by function of the samples under `under` (a package), when asked. */
	selfUnder?: { package: string; entries: Entry[] };
}

const SPECIAL = new Set(['(idle)', '(program)', '(garbage collector)', '(root)']);

/** `…/node_modules/@n8n/db/dist/x.js` → `@n8n/db`; `node:internal/…` → `node (internal)`. */
export function packageOf(frame: CallFrame): string {
	if (SPECIAL.has(frame.functionName) && !frame.url) return frame.functionName;
	const url = frame.url;
	if (!url) return '(native / V8 builtins)';
	if (url.startsWith('node:')) return 'node (internal)';
	const at = url.lastIndexOf('/node_modules/');
	if (at < 0) return url.replace(/^file:\/\//, '');
	const parts = url.slice(at + '/node_modules/'.length).split('/');
	return parts[0].startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0];
}

/** The file, from its package on (`n8n/dist/webhooks/live-webhooks.js`). */
export function fileOf(frame: CallFrame): string {
	if (SPECIAL.has(frame.functionName) && !frame.url) return frame.functionName;
	const url = frame.url;
	if (!url) return '(native / V8 builtins)';
	const at = url.lastIndexOf('/node_modules/');
	return at < 0 ? url.replace(/^file:\/\//, '') : url.slice(at + '/node_modules/'.length);
}

function functionOf(frame: CallFrame): string {
	if (SPECIAL.has(frame.functionName) && !frame.url) return frame.functionName;
	return `${frame.functionName || '(anonymous)'} ${fileOf(frame)}:${frame.lineNumber + 1}`;
}

export function readProfile(file: string): CpuProfile {
	return JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
}

function top(map: Map<string, number>, busyMs: number, count: number): Entry[] {
	return [...map.entries()]
		.sort((a, b) => b[1] - a[1])
		.slice(0, count)
		.map(([name, us]) => ({ name, ms: us / 1000, share: busyMs > 0 ? us / 1000 / busyMs : 0 }));
}

function add(map: Map<string, number>, key: string, us: number): void {
	map.set(key, (map.get(key) ?? 0) + us);
}

/** Adds up `profiles` (only samples within [from, to] when given); `count` entries per list. */
export function summarize(
	profiles: CpuProfile[],
	options: {
		from?: number;
		to?: number;
		deliveries?: number;
		count?: number;
		focus?: string[];
		under?: string;
	} = {},
): ProfileSummary {
	const count = options.count ?? 15;
	const focus = options.focus ?? [];
	const inclusiveByFocus = new Map<string, number>(focus.map((name) => [name, 0]));
	const selfUnder = new Map<string, number>();
	const selfByFunction = new Map<string, number>();
	const selfByFile = new Map<string, number>();
	const selfByPackage = new Map<string, number>();
	const inclusiveByPackage = new Map<string, number>();
	let wallUs = 0;
	let idleUs = 0;
	let gcUs = 0;
	let programUs = 0;
	let totalUs = 0;
	for (const profile of profiles) {
		const byId = new Map(profile.nodes.map((node) => [node.id, node]));
		const parent = new Map<number, number>();
		for (const node of profile.nodes)
			for (const child of node.children ?? []) parent.set(child, node.id);
		// The packages on each node's stack, computed once per node.
		const stackPackages = new Map<number, Set<string>>();
		const stackFocus = new Map<number, Set<string>>();
		// The focus names matched on a node's stack (a name matches `functionName` or `functionName file`).
		const focusOnStack = (id: number): Set<string> => {
			const known = stackFocus.get(id);
			if (known) return known;
			const node = byId.get(id);
			const above = parent.has(id) ? focusOnStack(parent.get(id) as number) : new Set<string>();
			const frame = node?.callFrame;
			const own = frame
				? focus.filter(
						(name) =>
							name === frame.functionName || name === `${frame.functionName} ${fileOf(frame)}`,
					)
				: [];
			const set = own.some((name) => !above.has(name)) ? new Set([...above, ...own]) : above;
			stackFocus.set(id, set);
			return set;
		};
		const packagesOnStack = (id: number): Set<string> => {
			const known = stackPackages.get(id);
			if (known) return known;
			const node = byId.get(id);
			const above = parent.has(id) ? packagesOnStack(parent.get(id) as number) : new Set<string>();
			const own = node ? packageOf(node.callFrame) : '';
			const set = own && !SPECIAL.has(own) && !above.has(own) ? new Set([...above, own]) : above;
			stackPackages.set(id, set);
			return set;
		};
		const from = options.from ?? profile.startTime;
		const to = options.to ?? profile.endTime;
		wallUs += Math.max(0, Math.min(to, profile.endTime) - Math.max(from, profile.startTime));
		// Sample i lasts until sample i + 1 (the last one until the profile's end).
		let time = profile.startTime;
		const times = profile.timeDeltas.map((delta) => (time += delta));
		for (let i = 0; i < profile.samples.length; i++) {
			const start = times[i];
			const end = i + 1 < times.length ? times[i + 1] : profile.endTime;
			const us = Math.max(0, Math.min(end, to) - Math.max(start, from));
			if (us === 0) continue;
			const node = byId.get(profile.samples[i]);
			if (!node) continue;
			const frame = node.callFrame;
			totalUs += us;
			if (frame.functionName === '(idle)') {
				idleUs += us;
				continue;
			}
			if (frame.functionName === '(garbage collector)') gcUs += us;
			if (frame.functionName === '(program)') programUs += us;
			add(selfByFunction, functionOf(frame), us);
			add(selfByFile, fileOf(frame), us);
			add(selfByPackage, packageOf(frame), us);
			const packages = packagesOnStack(node.id);
			for (const name of packages) add(inclusiveByPackage, name, us);
			if (focus.length > 0)
				for (const name of focusOnStack(node.id)) add(inclusiveByFocus, name, us);
			if (options.under && packages.has(options.under)) add(selfUnder, functionOf(frame), us);
		}
	}
	// Samples cover the window; the wall time is per profile, so two processes give twice the wall.
	const busyMs = (totalUs - idleUs) / 1000;
	return {
		wallMs: wallUs / 1000,
		busyMs,
		idleMs: idleUs / 1000,
		gcMs: gcUs / 1000,
		programMs: programUs / 1000,
		...(options.deliveries ? { busyMsPerDelivery: busyMs / options.deliveries } : {}),
		selfByFunction: top(selfByFunction, busyMs, count),
		selfByFile: top(selfByFile, busyMs, count),
		selfByPackage: top(selfByPackage, busyMs, count),
		inclusiveByPackage: top(inclusiveByPackage, busyMs, count),
		...(focus.length > 0 ? { inclusiveByFocus: top(inclusiveByFocus, busyMs, focus.length) } : {}),
		...(options.under
			? { selfUnder: { package: options.under, entries: top(selfUnder, busyMs, count) } }
			: {}),
	};
}

/** The summary as text tables (ms and share of busy time). */
export function renderSummary(summary: ProfileSummary, title = 'CPU profile'): string {
	const lines = [
		`${title}: wall ${summary.wallMs.toFixed(0)} ms, busy ${summary.busyMs.toFixed(0)} ms (GC ${summary.gcMs.toFixed(0)}, program ${summary.programMs.toFixed(0)}), idle ${summary.idleMs.toFixed(0)} ms` +
			(summary.busyMsPerDelivery === undefined
				? ''
				: `; busy ${summary.busyMsPerDelivery.toFixed(2)} ms per delivery`),
	];
	const table = (heading: string, entries: Entry[]) => {
		lines.push('', `| ${heading} | ms | share of busy |`, '|---|---|---|');
		for (const entry of entries)
			lines.push(
				`| ${entry.name} | ${entry.ms.toFixed(0)} | ${(entry.share * 100).toFixed(1)} % |`,
			);
	};
	table('self time by function', summary.selfByFunction);
	table('self time by file', summary.selfByFile);
	table('self time by package', summary.selfByPackage);
	table('time under the package (inclusive)', summary.inclusiveByPackage);
	if (summary.inclusiveByFocus)
		table('time under the function (inclusive)', summary.inclusiveByFocus);
	if (summary.selfUnder)
		table(`self time by function, under ${summary.selfUnder.package}`, summary.selfUnder.entries);
	return lines.join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
	const files = process.argv.slice(2).filter((argument) => !argument.startsWith('--'));
	const text = (name: string) =>
		process.argv.find((argument) => argument.startsWith(`--${name}=`))?.slice(name.length + 3);
	const option = (name: string) => (text(name) === undefined ? undefined : Number(text(name)));
	if (files.length === 0) {
		process.stderr.write(
			'usage: node bench/cpuProfile.ts <file.cpuprofile>... [--deliveries=N] [--top=15] [--from=µs] [--to=µs] [--focus=name,…] [--under=package]\n',
		);
		process.exit(2);
	}
	const summary = summarize(files.map(readProfile), {
		from: option('from'),
		to: option('to'),
		deliveries: option('deliveries'),
		count: option('top'),
		focus: text('focus')?.split(','),
		under: text('under'),
	});
	process.stdout.write(`${renderSummary(summary, files.join(' + '))}\n`);
}
