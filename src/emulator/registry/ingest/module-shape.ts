/**
 * What the registry learns from a module version's archive: the shapes the
 * registry protocol serves per version (`root`, `submodules`, `providers`),
 * plus the archive's file list and its Terraform test files, which the
 * emulated test runner (../tests) reads instead of unpacking the archive again.
 */

export interface ModuleVariable {
  name: string;
  description: string;
  /** JSON value, null when none. */
  default: unknown;
  /** HCL type expression as text, '' when none. */
  type: string;
  required: boolean;
  sensitive: boolean;
}

export interface ModuleOutput {
  name: string;
  description: string;
  sensitive: boolean;
}

export interface ModuleCall {
  name: string;
  source: string;
  version: string;
}

export interface ModulePart {
  /** '' for root, 'modules/x' for submodules. */
  path: string;
  readme: string;
  empty: boolean;
  inputs: ModuleVariable[];
  outputs: ModuleOutput[];
  dependencies: ModuleCall[];
  resources: Array<{ name: string; type: string }>;
  providers: Array<{ name: string; version: string }>;
}

export interface IngestedModule {
  root: ModulePart;
  submodules: ModulePart[];
  providers: string[];
  files: string[];
  /** *.tftest.hcl files (under tests/ or anywhere), kept as text for the test runner. */
  tests: Array<{ path: string; text: string }>;
}
