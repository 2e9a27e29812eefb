// Medians, ratios and the results table.

export function median(values: number[]): number {
	if (values.length === 0) return Number.NaN;
	const sorted = [...values].sort((a, b) => a - b);
	const middle = Math.floor(sorted.length / 2);
	return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

export interface ResultRow {
	benchmark: string;
	metric: string;
	ours: number | string;
	baseline: number | string;
	baselineName: string;
	/** ours / baseline, or a ratio the benchmark defines (see bench/README.md). */
	ratio: number | null;
	target: string;
	pass: boolean | null;
	notes?: string;
}

const format = (value: number | string | null): string => {
	if (value === null) return '—';
	if (typeof value === 'string') return value;
	if (Number.isInteger(value)) return String(value);
	return value.toFixed(Math.abs(value) >= 100 ? 0 : Math.abs(value) >= 10 ? 1 : 3);
};

export function renderTable(rows: ResultRow[]): string {
	const header = ['benchmark', 'metric', 'ours', 'baseline', 'ratio', 'target', 'result'];
	const lines = rows.map((row) => [
		row.benchmark,
		row.metric,
		format(row.ours),
		`${format(row.baseline)} (${row.baselineName})`,
		format(row.ratio),
		row.target,
		row.pass === null ? 'info' : row.pass ? 'PASS' : 'MISS',
	]);
	const widths = header.map((title, column) =>
		Math.max(title.length, ...lines.map((line) => line[column].length)),
	);
	const render = (cells: string[]) =>
		`| ${cells.map((cell, column) => cell.padEnd(widths[column])).join(' | ')} |`;
	return [
		render(header),
		`|${widths.map((width) => '-'.repeat(width + 2)).join('|')}|`,
		...lines.map(render),
	].join('\n');
}

export const MiB = 1024 * 1024;
