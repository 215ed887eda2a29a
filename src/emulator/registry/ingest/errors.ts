/**
 * The one error an ingest raises. Its message is the reason the registry shows
 * in a version's `version-statuses[].error` when the version ends up
 * `reg_ingress_failed`, so it is written for the module's author: it names the
 * file (and, for HCL, the position) and what is wrong. `stage` lets callers and
 * tests tell an unreadable archive from a readable one holding bad Terraform.
 */

/** Where the upload was refused: the archive itself, its layout, or the Terraform in it. */
export type IngestStage = 'archive' | 'layout' | 'config';

export class IngestError extends Error {
  override readonly name = 'IngestError';
  readonly stage: IngestStage;

  constructor(message: string, stage: IngestStage) {
    super(message);
    this.stage = stage;
  }
}
