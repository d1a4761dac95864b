export { type BuildToolMetadataOptions, buildToolMetadata } from "./build-tool-metadata.js";
