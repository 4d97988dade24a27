export { GitError, redactCredentials, type GitErrorKind } from './errors.js';
export { DEFAULT_TIMEOUT_MS } from './exec.js';
export { mirrorRepository, isBareRepository, type MirrorOptions } from './mirror.js';
export { listRefs, type GitRef, type RepositoryRefs } from './refs.js';
export {
  readFilesAtCommits,
  readFileAtCommit,
  fileKey,
  type FileRequest,
  type ReadOptions,
} from './batch.js';
export { archiveZip, type ArchiveOptions } from './archive.js';
export { archiveZipFiles, archiveZips } from './archive-many.js';
export { buildZips, type ZipJob, type ZipBuildResult } from './zip-build.js';
export { ObjectReader } from './object-reader.js';
export {
  listDirectories,
  findReadme,
  readmeBlobOf,
  type Readme,
  type TreeOptions,
} from './tree.js';
export {
  credentialEnv,
  remoteConfigEnv,
  type GitCredentials,
  type PinnedHost,
} from './credentials.js';
