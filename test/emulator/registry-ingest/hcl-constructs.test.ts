/**
 * The Terraform constructs real modules use, one generated module each, so a
 * failure names the construct. Each module is uploaded as a tarball, as the
 * registry receives it.
 */
import { describe, expect, it } from 'vitest';
import { ingestModule, type ModulePart } from '../../../src/emulator/registry/ingest/index.ts';
import { moduleTarball } from './tarballs.ts';

const root = async (files: Record<string, string>): Promise<ModulePart> =>
  (await ingestModule(moduleTarball(files))).root;

describe('a module of many files', () => {
  it('merges declarations from every .tf file, and a .tf.json file', async () => {
    const part = await root({
      'variables.tf': 'variable "a" {}\n',
      'main.tf': 'resource "null_resource" "x" {}\n',
      'outputs.tf': 'output "o" {\n  value = 1\n}\n',
      'extra.tf.json': JSON.stringify({ variable: { b: { default: 2, type: 'number' } }, output: { p: { value: 2 } } }),
    });
    expect(part.inputs.map((v) => [v.name, v.type, v.default, v.required])).toEqual([
      ['a', '', null, true],
      ['b', 'number', 2, false],
    ]);
    expect(part.outputs.map((o) => o.name)).toEqual(['o', 'p']);
    expect(part.resources).toEqual([{ name: 'x', type: 'null_resource' }]);
  });

  it('reads 300 variables', async () => {
    const names = Array.from({ length: 300 }, (_, i) => `var_${String(i).padStart(3, '0')}`);
    const text = names
      .map((name, i) =>
        i % 2 === 0
          ? `variable "${name}" {\n  description = "Variable ${i}."\n  type        = number\n  default     = ${i}\n}\n`
          : `variable "${name}" {\n  type      = string\n  sensitive = true\n}\n`,
      )
      .join('\n');
    const part = await root({ 'variables.tf': text, 'main.tf': 'resource "null_resource" "x" {}\n' });
    expect(part.inputs).toHaveLength(300);
    expect(part.inputs.map((v) => v.name)).toEqual(names);
    expect(part.inputs[0]).toEqual({
      name: 'var_000',
      description: 'Variable 0.',
      default: 0,
      type: 'number',
      required: false,
      sensitive: false,
    });
    expect(part.inputs[299]).toEqual({
      name: 'var_299',
      description: '',
      default: null,
      type: 'string',
      required: true,
      sensitive: true,
    });
  });

  it('lets an override file change a declaration instead of duplicating it', async () => {
    const part = await root({
      'variables.tf': 'variable "region" {\n  default = "eu-west-1"\n}\n',
      'override.tf': 'variable "region" {\n  default = "us-east-1"\n}\n',
    });
    expect(part.inputs.map((v) => [v.name, v.default])).toEqual([['region', 'us-east-1']]);
  });
});

describe('blocks inside resources', () => {
  it('reads a resource with dynamic blocks, for_each, count and lifecycle', async () => {
    const part = await root({
      'main.tf': `
resource "aws_security_group" "web" {
  for_each = toset(["a", "b"])
  name     = "web-\${each.key}"

  dynamic "ingress" {
    for_each = var.ports
    iterator = port
    content {
      from_port = port.value
      to_port   = port.value
      protocol  = "tcp"
    }
  }

  lifecycle {
    ignore_changes = [tags]
  }
}

resource "aws_eip" "ip" {
  count = 2
}

variable "ports" {
  type    = list(number)
  default = [80, 443]
}
`,
    });
    expect(part.resources).toEqual([
      { name: 'ip', type: 'aws_eip' },
      { name: 'web', type: 'aws_security_group' },
    ]);
    expect(part.inputs[0]).toMatchObject({ name: 'ports', type: 'list(number)', default: [80, 443] });
  });
});

describe('heredocs', () => {
  it('reads heredoc descriptions, indented (<<-) or not, and a heredoc default', async () => {
    const part = await root({
      'variables.tf': `variable "indented" {
  description = <<-EOT
    First line.
      Second line, indented.
  EOT
  type = string
}

variable "flush" {
  description = <<EOT
Kept as written.
EOT
  default = <<EOT
{"a": 1}
EOT
}
`,
    });
    expect(part.inputs.map((v) => [v.name, v.description, v.default])).toEqual([
      ['flush', 'Kept as written.\n', '{"a": 1}\n'],
      ['indented', 'First line.\n  Second line, indented.\n', null],
    ]);
  });
});

describe('variable types', () => {
  it('renders optional() object types written on one line or many, with comments, back to one line', async () => {
    const part = await root({
      'variables.tf': `variable "one_line" {
  type = object({ name = string, size = optional(number, 10) })
}

variable "many_lines" {
  type = list(object({
    name = string # a comment
    // another
    size    = optional(number, 10)
    tags    = optional(map(string), {})
    options = optional(object({ enabled = bool }), { enabled = true }),
  }))
}

variable "tuple" {
  type = tuple([string, number, bool])
}

variable "legacy" {
  type = "string"
}

variable "anything" {
  type = any
}
`,
    });
    expect(Object.fromEntries(part.inputs.map((v) => [v.name, v.type]))).toEqual({
      anything: 'any',
      legacy: 'string',
      many_lines:
        'list(object({ name = string, size = optional(number, 10), tags = optional(map(string), {}), options = optional(object({ enabled = bool }), { enabled = true }) }))',
      one_line: 'object({ name = string, size = optional(number, 10) })',
      tuple: 'tuple([string, number, bool])',
    });
  });

  it('keeps CRLF files on one line too', async () => {
    const part = await root({
      'variables.tf': 'variable "x" {\r\n  type = object({\r\n    a = string\r\n    b = number\r\n  })\r\n}\r\n',
    });
    expect(part.inputs[0]!.type).toBe('object({ a = string, b = number })');
  });
});

describe('variable settings', () => {
  it('reads validation blocks, sensitive, nullable and defaults of every JSON kind', async () => {
    const part = await root({
      'variables.tf': `variable "port" {
  type    = number
  default = 8080
  validation {
    condition     = var.port > 0 && var.port < 65536
    error_message = "The port must be 1-65535."
  }
  validation {
    condition     = var.port != 22
    error_message = "Not the SSH port."
  }
}

variable "secret" {
  type      = string
  sensitive = true
}

variable "must_be_set" {
  type     = string
  default  = null
  nullable = false
}

variable "may_be_null" {
  type    = string
  default = null
}

variable "object" {
  default = { list = [1, 2.5, true, null], "key with space" = "v" }
}

variable "template_text" {
  default = "literal $\${not_interpolated} and %%{not_a_directive}"
}
`,
    });
    const byName = Object.fromEntries(part.inputs.map((v) => [v.name, v]));
    expect(byName.port).toMatchObject({ default: 8080, required: false, type: 'number' });
    expect(byName.secret).toMatchObject({ default: null, required: true, sensitive: true });
    expect(byName.must_be_set).toMatchObject({ default: null, required: true });
    expect(byName.may_be_null).toMatchObject({ default: null, required: false });
    expect(byName.object!.default).toEqual({ list: [1, 2.5, true, null], 'key with space': 'v' });
    // an escaped $${ in HCL is a literal ${
    expect(byName.template_text!.default).toBe(`literal \${not_interpolated} and %{not_a_directive}`);
  });
});

describe('top-level blocks that declare nothing the registry lists', () => {
  it('accepts moved, removed, check, import, locals and provider blocks', async () => {
    const part = await root({
      'main.tf': `
locals {
  name = "x"
}

provider "aws" {
  region = "eu-west-1"
}

provider "aws" {
  alias  = "us"
  region = "us-east-1"
}

resource "aws_s3_bucket" "this" {
  provider = aws.us
  bucket   = local.name
}

moved {
  from = aws_s3_bucket.old
  to   = aws_s3_bucket.this
}

removed {
  from = aws_s3_bucket.legacy
  lifecycle {
    destroy = false
  }
}

check "reachable" {
  data "http" "probe" {
    url = "https://example.com"
  }
  assert {
    condition     = data.http.probe.status_code == 200
    error_message = "Not reachable."
  }
}

import {
  to = aws_s3_bucket.this
  id = "my-bucket"
}
`,
    });
    expect(part.resources).toEqual([{ name: 'this', type: 'aws_s3_bucket' }]);
    expect(part.providers).toEqual([{ name: 'aws', version: '' }]);
    expect(part.empty).toBe(false);
  });
});

describe('providers', () => {
  it('reads required_providers in every form and infers the others from resource types', async () => {
    const part = await root({
      'versions.tf': `terraform {
  required_providers {
    aws = {
      source  = "hashicorp/aws"
      version = "~> 5.0"
    }
    legacy = "~> 1.0"
  }
}

terraform {
  required_providers {
    aws = {
      source  = "hashicorp/aws"
      version = ">= 5.10"
    }
    random = {
      source = "hashicorp/random"
    }
  }
}
`,
      'main.tf': `resource "google_storage_bucket" "b" {}
data "azurerm_client_config" "current" {}
resource "terraform_data" "marker" {}
resource "aws_instance" "beta" {
  provider = awsalt.west
}
provider "old" {
  version = "0.1"
}
`,
    });
    expect(part.providers).toEqual([
      { name: 'aws', version: '~> 5.0, >= 5.10' },
      { name: 'awsalt', version: '' },
      { name: 'azurerm', version: '' },
      { name: 'google', version: '' },
      { name: 'legacy', version: '~> 1.0' },
      { name: 'old', version: '0.1' },
      { name: 'random', version: '' },
    ]);
  });
});

describe('module calls', () => {
  it('lists module calls as dependencies with their source and version', async () => {
    const part = await root({
      'main.tf': `module "vpc" {
  source  = "terraform-aws-modules/vpc/aws"
  version = "5.8.1"
  name    = "x"
}

module "local" {
  source = "./modules/local"
}

module "git" {
  source   = "git::https://example.com/network.git?ref=v1.2.0"
  for_each = toset(["a"])
}
`,
    });
    expect(part.dependencies).toEqual([
      { name: 'git', source: 'git::https://example.com/network.git?ref=v1.2.0', version: '' },
      { name: 'local', source: './modules/local', version: '' },
      { name: 'vpc', source: 'terraform-aws-modules/vpc/aws', version: '5.8.1' },
    ]);
  });
});

describe('submodules, READMEs and tests', () => {
  it('finds submodules under modules/, their READMEs, and test files anywhere', async () => {
    const module = await ingestModule(
      moduleTarball({
        'main.tf': 'variable "a" {}\n',
        'README.md': '# root\n',
        'modules/b/main.tf': 'output "b" {\n  value = 1\n}\n',
        'modules/b/readme.md': '# b\n',
        'modules/a/variables.tf': 'variable "x" {}\n',
        'modules/docs-only/README.md': '# not a module\n',
        'modules/a/nested/main.tf': 'variable "deep" {}\n',
        'examples/basic/main.tf': 'module "m" {\n  source = "../.."\n}\n',
        'tests/unit.tftest.hcl': 'run "a" {}\n',
        'modules/a/tests/a.tftest.hcl': 'run "b" {}\n',
      }),
    );
    expect(module.root.readme).toBe('# root\n');
    expect(module.submodules.map((part) => [part.path, part.readme, part.inputs.length, part.outputs.length])).toEqual([
      ['modules/a', '', 1, 0],
      ['modules/b', '# b\n', 0, 1],
    ]);
    expect(module.tests).toEqual([
      { path: 'modules/a/tests/a.tftest.hcl', text: 'run "b" {}\n' },
      { path: 'tests/unit.tftest.hcl', text: 'run "a" {}\n' },
    ]);
  });

  it('marks a module that declares nothing as empty', async () => {
    const module = await ingestModule(
      moduleTarball({ 'main.tf': 'resource "null_resource" "x" {}\n', 'modules/stub/main.tf': '# nothing yet\n' }),
    );
    expect(module.root.empty).toBe(false);
    expect(module.submodules[0]).toMatchObject({ path: 'modules/stub', empty: true, inputs: [], providers: [] });
    expect(module.providers).toEqual(['null']);
  });
});
