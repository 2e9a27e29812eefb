/**
 * What is wrong with the policy, the invoice or the decisions for the next approval step, and what
 * to set: the operation turns it into a NodeOperationError for the item.
 */
export class PolicyError extends Error {
	/** What to change, in the words of the Data Table or the node's parameters. */
	readonly fix: string;

	constructor(message: string, fix: string) {
		super(message);
		this.name = 'PolicyError';
		this.fix = fix;
	}
}
