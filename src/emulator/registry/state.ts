/**
 * The registry's part of the emulator state: module records (one per
 * registry, namespace, name and provider, as the management API shows them),
 * their versions with the uploaded archives, and what module tests use
 * (test configuration, variables, configuration versions, runs). Plain
 * JSON, so saving the state is saving this record; archives are base64.
 */
import type { Attributes } from '../jsonapi.ts';
import type { State } from '../state.ts';
import type { RunOutcome } from './tests/index.ts';

export interface VcsRepo {
  identifier: string;
  'display-identifier': string;
  branch: string;
  'ingress-submodules': boolean;
  'oauth-token-id': string;
  'webhook-url': string;
}

export interface ModuleRecord {
  id: string;
  organization: string;
  registryName: 'private' | 'public';
  namespace: string;
  name: string;
  provider: string;
  status: 'pending' | 'setup_complete';
  noCode: boolean;
  vcsRepo: VcsRepo | null;
  /** A branch-based module's branch commit last read (at publishing, then by the webhook). */
  vcsHead?: string;
  testConfig: { id: string; testsEnabled: boolean } | null;
  createdAt: string;
  updatedAt: string;
}

export interface VersionRecord {
  id: string;
  moduleId: string;
  version: string;
  status: 'pending' | 'cloning' | 'clone_failed' | 'reg_ingressing' | 'reg_ingress_failed' | 'ok';
  source: string;
  error: string | null;
  commitSha: string;
  createdAt: string;
  updatedAt: string;
  /** The uploaded gzip tarball, base64: the download serves it byte for byte. */
  archive: string | null;
  /** What ingestion learnt (inputs, outputs, …), as the protocol serves it. */
  details: Attributes | null;
  downloads: number;
}

export interface TestVariable {
  id: string;
  moduleId: string;
  key: string;
  value: string;
  description: string;
  category: string;
  sensitive: boolean;
  createdAt: string;
}

export interface ConfigurationVersion {
  id: string;
  moduleId: string;
  status: 'pending' | 'uploaded';
  createdAt: string;
  /** The uploaded configuration's test files, by path. */
  files: Array<{ path: string; text: string }>;
  /** The root module's input defaults, as `TF_VAR_<name>` values: what a run has when nothing else sets a variable. */
  defaults?: Array<{ key: string; value: string; category: string }>;
  /** Why the uploaded configuration could not be read; its run then ends `errored`. */
  error?: string;
}

export interface TestRun {
  id: string;
  moduleId: string;
  configurationVersionId: string;
  source: string;
  createdBy: string;
  verbose: boolean;
  testDirectory: string;
  filters: string[];
  variables: Array<{ key: string; value: string }>;
  message: string;
  /** Epoch ms: queued at creation, running from `startAt`, done from `endAt`, unless canceled. */
  createdAt: number;
  startAt: number;
  endAt: number;
  cancelRequestedAt: number | null;
  canceledAt: number | null;
  /** What ./tests decided, without the per-file detail (the log has it). */
  outcome: Omit<RunOutcome, 'files'> | null;
  /** The log's capability token (`log-read-url`). */
  logToken: string;
}

export interface UploadTarget {
  kind: 'module-version' | 'configuration-version';
  id: string;
}

export interface RegistryData {
  modules: ModuleRecord[];
  versions: VersionRecord[];
  variables: TestVariable[];
  configurationVersions: ConfigurationVersion[];
  runs: TestRun[];
  /** Unguessable object ids of the upload store -> what an upload there becomes. */
  uploads: Record<string, UploadTarget>;
  /** Download capability tokens -> version id. */
  downloads: Record<string, string>;
}

export class RegistrySlice {
  readonly data: RegistryData;

  constructor(saved: Partial<RegistryData> | undefined) {
    this.data = {
      modules: saved?.modules ?? [],
      versions: saved?.versions ?? [],
      variables: saved?.variables ?? [],
      configurationVersions: saved?.configurationVersions ?? [],
      runs: saved?.runs ?? [],
      uploads: saved?.uploads ?? {},
      downloads: saved?.downloads ?? {},
    };
  }

  save(): RegistryData {
    return this.data;
  }
}

export function registrySlice(state: State): RegistrySlice {
  return state.slice('registry', (saved) => new RegistrySlice(saved as Partial<RegistryData> | undefined));
}
