/**
 * Where the API key may go (docs/spec-decisions.md#n64): over https, or over plain http only to this
 * machine (the local sandbox), where it never crosses a network.
 */

/** localhost, 127.0.0.0/8 and [::1], as WHATWG URL parsing writes them (lowercase, IPv4 normalised). */
function isLoopback(hostname: string): boolean {
	return (
		hostname === 'localhost' ||
		hostname === '[::1]' ||
		/^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname)
	);
}

/** Why a request to `url` must not carry the API key, or null when it may. */
export function plainHttpProblem(url: URL): string | null {
	if (url.protocol !== 'http:' || isLoopback(url.hostname)) return null;
	return `The Base URL "${url.origin}" would send the API key unencrypted: use the service's https:// address (plain http is only for this machine: localhost, 127.0.0.1 or [::1], e.g. the local sandbox)`;
}
