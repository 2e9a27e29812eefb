/** What a target makes of one invoice item: the request to post, or the reasons it cannot be booked. */
import type { IDataObject } from 'n8n-workflow';

export type BuiltBill =
	/** `attach`: the original file goes on with the item for the attachment request. */
	| { ready: true; json: IDataObject; attach: boolean }
	| { ready: false; json: IDataObject; attach?: undefined };
