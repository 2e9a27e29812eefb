export { DocumentExtractionApi } from './credentials/DocumentExtractionApi.credentials.ts';
export { DocumentExtraction } from './nodes/DocumentExtraction/DocumentExtraction.node.ts';
export { DocumentExtractionTrigger } from './nodes/DocumentExtraction/DocumentExtractionTrigger.node.ts';
