export { DocumentExtractionApi } from './credentials/DocumentExtractionApi.credentials';
export { DocumentExtraction } from './nodes/DocumentExtraction/DocumentExtraction.node';
export { DocumentExtractionTrigger } from './nodes/DocumentExtraction/DocumentExtractionTrigger.node';
