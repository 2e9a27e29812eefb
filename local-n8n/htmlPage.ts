// The small HTML pages `npm start` links (the mail an approver receives, the bills a stand-in holds):
// every value escaped, so a supplier named with markup is shown as text, never run.

/** Text as HTML text or an attribute value. */
export function escapeHtml(value: unknown): string {
	return String(value ?? '').replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}

/** A whole page: `body` is HTML the caller built from escaped values. */
export function htmlPage(title: string, body: string): string {
	return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>
<style>
body { font: 14px/1.4 system-ui, sans-serif; margin: 24px; color: black; }
table { border-collapse: collapse; margin: 8px 0 20px; }
th, td { border: 1px solid #ccc; padding: 4px 8px; text-align: left; vertical-align: top; }
th { background: #f3f3f3; }
td.amount { text-align: right; font-variant-numeric: tabular-nums; }
iframe { width: 100%; height: 70vh; border: 1px solid #ccc; }
.muted { color: gray; }
</style></head><body><h1>${escapeHtml(title)}</h1>
${body}
</body></html>`;
}
