// Supplier text as text in what a template shows a person: which nodes send an email or show a
// page, which of their parameters are HTML, and whether each `{{ … }}` in them is escaped, HTML the
// package escaped itself, or no supplier text at all. Everything else counts as supplier text: a
// vendor named `<a href="https://evil.example">Pay here</a> Ltd` must never become a live link.
// Pure: it reads template JSON and runs nothing.

export interface TemplateNode {
	name: string;
	type: string;
	parameters: Record<string, unknown>;
}

export interface Finding {
	node: string;
	parameter: string;
	expression: string;
}

/**
 * What the templates end supplier text with. Numeric references, because n8n's Send and Wait
 * (n8n-nodes-base 2.41.1, getSendAndWaitConfig: its `escapeHtml` decodes) turns &lt; &gt; &amp;
 * &quot; and &#39; back into markup before it sends; `&` first, so the others are not escaped twice.
 */
export const ESCAPE = `.replace(/&/g, '&#38;').replace(/</g, '&#60;').replace(/>/g, '&#62;').replace(/"/g, '&#34;')`;

/**
 * Fields the package writes as HTML with every supplier text escaped (invoiceSummary.ts,
 * registerDigest.ts).
 */
const PACKAGE_HTML = ['summary_html', 'lines_html', 'lines_markdown', 'digest_html'];

const EMAIL = [
	'n8n-nodes-base.emailSend',
	'n8n-nodes-base.gmail',
	'n8n-nodes-base.microsoftOutlook',
];
const PAGE = ['n8n-nodes-base.form', 'n8n-nodes-base.formTrigger'];

/** A node that sends an email or shows a form or page to a person. */
export function showsAPerson(node: TemplateNode): boolean {
	const { operation, resume, respondWith } = node.parameters;
	return (
		EMAIL.includes(node.type) ||
		PAGE.includes(node.type) ||
		operation === 'sendAndWait' || // any service's Send and Wait: its form page is HTML
		(node.type === 'n8n-nodes-base.wait' && resume === 'form') ||
		(node.type === 'n8n-nodes-base.respondToWebhook' && respondWith === 'text')
	);
}

/**
 * Parameters that are not HTML: an email's subject is a plain-text header (an entity there shows as
 * "&#60;"), addresses, ids, the names of the binary fields to attach, how long or until when to wait, and a form
 * defined as JSON (n8n escapes < and > in every text of it: tryToParseJsonToFormFields, 2.41.1).
 */
const NOT_HTML =
	/^(subject|sendTo|replyTo|\w*Email|\w*Recipients|\w*Id|fileAttachments|attachments|resumeAmount|maxDateAndTime|jsonOutput)$/;

/** Every text parameter of a node that is HTML, by its path ("options.responseFormDescription"). */
function htmlParameters(value: unknown, path = ''): Array<[string, string]> {
	if (typeof value === 'string') return [[path, value]];
	if (Array.isArray(value))
		return value.flatMap((entry, index) => htmlParameters(entry, `${path}[${index}]`));
	if (typeof value !== 'object' || value === null) return [];
	return Object.entries(value)
		.filter(([key]) => !NOT_HTML.test(key))
		.flatMap(([key, entry]) => htmlParameters(entry, path ? `${path}.${key}` : key));
}

/** The `{{ … }}` of an expression parameter ("=…"); a fixed value has none. */
export function expressionsIn(value: string): string[] {
	if (!value.startsWith('=')) return [];
	return [...value.matchAll(/\{\{([\s\S]*?)\}\}/g)].map((match) => match[1].trim());
}

/** "Settings.approval_threshold": what a Set node assigns as a fixed value, set by the template. */
export function templateValues(nodes: TemplateNode[]): Set<string> {
	const values = new Set<string>();
	for (const node of nodes.filter((entry) => entry.type === 'n8n-nodes-base.set')) {
		const assignments =
			(node.parameters.assignments as { assignments?: Array<{ name: string; value: unknown }> })
				?.assignments ?? [];
		for (const { name, value } of assignments)
			if (!(typeof value === 'string' && value.startsWith('='))) values.add(`${node.name}.${name}`);
	}
	return values;
}

/** `$json.summary`, `$('Settings').first().json.summary`, `$json.data?.Reason`… */
const PATH = /^\$(\w*|\((['"])[^'"]*\2\))(\??\.\w+(\(\))?|\[\d+\])*$/;

/** A path, or one call or bracket that closes at the very end: `String(…)`, `Number(…)`, `(…)`. */
function isOneOperand(text: string): boolean {
	const operand = text.trim();
	if (PATH.test(operand)) return true;
	const open = /^(String|Number)?\(/.exec(operand);
	if (!open) return false;
	const masked = operand.replace(/'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"/g, "''");
	let depth = 0;
	for (let index = open[0].length - 1; index < masked.length; index++) {
		if (masked[index] === '(') depth++;
		else if (masked[index] === ')' && --depth === 0) return index === masked.length - 1;
	}
	return false;
}

/** Only a field the package escaped, maybe with its named references made numeric. */
function isPackageHtml(text: string): boolean {
	const namedToNumeric = /\.replace\(\/&(amp|lt|gt|quot|[#]39);\/g, '&#\d+;'\)$/;
	let rest = text;
	while (namedToNumeric.test(rest)) rest = rest.replace(namedToNumeric, '');
	if (rest.startsWith('String(') && isOneOperand(rest)) rest = rest.slice('String('.length, -1);
	rest = rest.replace(/\s*(\?\?|\|\|)\s*(''|"")$/, '').trim();
	return PATH.test(rest) && PACKAGE_HTML.some((field) => rest.endsWith(`.${field}`));
}

/** A number or a date as text (`toFixed` and `toISO` exist on no string), never a supplier's words. */
function isNumberOrDate(text: string): boolean {
	const formatted = /^(.+)\.(toFixed\(\d*\)|toISO\(\)|toISODate\(\)|toISOString\(\))$/s.exec(text);
	if (formatted) return isOneOperand(formatted[1]);
	const localized = /^(Number\(.+\))\.toLocaleString\([^$]*\)$/s.exec(text);
	return localized !== null && isOneOperand(localized[1]);
}

/** Reads nothing but the template's own values, n8n's resume links, the time or the workflow. */
function readsNoSupplierText(text: string, fixed: Set<string>): boolean {
	const masked = text
		.replace(
			/\$\((['"])([^'"]+)\1\)\.(?:first\(\)|last\(\)|item)\.json\??\.(\w+)/g,
			(reference, _quote, node: string, field: string) =>
				fixed.has(`${node}.${field}`) ? '0' : reference,
		)
		.replace(/\$\((['"])[^'"]+\1\)\.isExecuted\b/g, '0')
		.replace(/\$execution\.(resumeUrl|resumeFormUrl|id)\b/g, '0')
		.replace(/\$(now|today)\b/g, '0')
		.replace(/\$workflow\.(id|name)\b/g, '0');
	return !masked.includes('$');
}

export type Verdict = 'escaped' | 'escaped by the package' | 'no supplier text' | 'raw';

/** How one `{{ … }}` of an HTML parameter shows what it reads. */
export function verdict(expression: string, fixed: Set<string>): Verdict {
	const text = expression.trim().replaceAll('/\\"/g', '/"/g');
	if (text.endsWith(ESCAPE) && isOneOperand(text.slice(0, -ESCAPE.length))) return 'escaped';
	if (isPackageHtml(text)) return 'escaped by the package';
	if (isNumberOrDate(text) || readsNoSupplierText(text, fixed)) return 'no supplier text';
	return 'raw';
}

/** Every `{{ … }}` that puts supplier text raw into an email or a page of the template. */
export function rawSupplierText(nodes: TemplateNode[]): Finding[] {
	const fixed = templateValues(nodes);
	return nodes.filter(showsAPerson).flatMap((node) =>
		htmlParameters(node.parameters)
			// The Send Email node's Text is the plain-text part (Email Format Text, or Both beside HTML).
			.filter(([parameter]) => !(node.type === 'n8n-nodes-base.emailSend' && parameter === 'text'))
			.flatMap(([parameter, value]) =>
				expressionsIn(value)
					.filter((expression) => verdict(expression, fixed) === 'raw')
					.map((expression) => ({ node: node.name, parameter, expression })),
			),
	);
}
