/**
 * The three realistic modules under examples/modules, packed as a user
 * would upload them, and everything the registry must learn from each.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { type IngestedModule, ingestModule, type ModuleVariable } from '../../../src/emulator/registry/ingest/index.ts';
import { FIXTURES, fixtureTarball } from './tarballs.ts';

const readme = (path: string) => readFileSync(`${FIXTURES}${path}`, 'utf8');
const ingestFixture = async (name: string): Promise<IngestedModule> => ingestModule(await fixtureTarball(name));

/** A variable as the registry lists it; `default` undefined means none, so the variable is required. */
function input(name: string, type: string, description: string, value?: unknown, sensitive = false): ModuleVariable {
  return { name, description, default: value ?? null, type, required: value === undefined, sensitive };
}
const output = (name: string, description: string, sensitive = false) => ({ name, description, sensitive });

describe('network fixture', () => {
  it('reads the root module: inputs with optional() types, validation, a dynamic block, for_each module calls', async () => {
    const module = await ingestFixture('network');
    expect(module.root).toEqual({
      path: '',
      readme: readme('network/README.md'),
      empty: false,
      inputs: [
        input('cidr_block', 'string', 'IPv4 CIDR block of the VPC.', '10.0.0.0/16'),
        input('enable_dns_hostnames', 'bool', 'Whether instances launched in the VPC get public DNS hostnames.', true),
        {
          ...input(
            'flow_logs',
            'object({ destination_arn = string, traffic_type = optional(string, "ALL"), max_aggregation_interval = optional(number, 600) })',
            'Where VPC flow logs go; null turns them off.',
          ),
          // `default = null` is a default: the variable is optional.
          required: false,
        },
        input(
          'ingress_rules',
          'list(object({ description = optional(string, ""), from_port = number, to_port = number, protocol = optional(string, "tcp"), cidr_blocks = list(string) }))',
          "Ingress rules of the network's default security group.",
          [{ description: 'HTTPS from anywhere', from_port: 443, to_port: 443, cidr_blocks: ['0.0.0.0/0'] }],
        ),
        input('name', 'string', 'Name prefix for every resource of the network.'),
        input(
          'subnets',
          'map(object({ cidr_block = string, availability_zone = string, public = optional(bool, false) }))',
          'Subnets to create, keyed by name.',
          {},
        ),
        input('tags', 'map(string)', 'Tags added to every resource.', {}),
      ],
      outputs: [
        output('availability_zones', 'Availability zones of the region.'),
        output('cidr_block', 'CIDR block of the VPC.'),
        output('security_group_id', "ID of the network's default security group."),
        output('subnet_ids', 'Subnet IDs, keyed by subnet name.'),
        output('vpc_id', 'ID of the VPC.'),
      ],
      dependencies: [{ name: 'subnet', source: './modules/subnet', version: '' }],
      // The data source needs the provider but is not a resource the module manages.
      resources: [
        { name: 'this', type: 'aws_flow_log' },
        { name: 'this', type: 'aws_internet_gateway' },
        { name: 'public', type: 'aws_route_table' },
        { name: 'default', type: 'aws_security_group' },
        { name: 'this', type: 'aws_vpc' },
      ],
      providers: [{ name: 'aws', version: '~> 5.0' }],
    });
  });

  it('reads the subnet submodule, the provider list, the files and the tests', async () => {
    const module = await ingestFixture('network');
    expect(module.submodules).toEqual([
      {
        path: 'modules/subnet',
        readme: readme('network/modules/subnet/README.md'),
        empty: false,
        inputs: [
          input('availability_zone', 'string', 'Availability zone of the subnet.'),
          input('cidr_block', 'string', 'IPv4 CIDR block of the subnet.'),
          input('name', 'string', 'Name tag of the subnet.'),
          input(
            'public',
            'bool',
            'Whether instances get a public IP and the subnet routes through route_table_id.',
            false,
          ),
          { ...input('route_table_id', 'string', 'Route table to associate with a public subnet.'), required: false },
          input('tags', 'map(string)', 'Tags added to the subnet.', {}),
          input('vpc_id', 'string', 'ID of the VPC the subnet belongs to.'),
        ],
        outputs: [output('arn', 'ARN of the subnet.'), output('id', 'ID of the subnet.')],
        dependencies: [],
        resources: [
          { name: 'this', type: 'aws_route_table_association' },
          { name: 'this', type: 'aws_subnet' },
        ],
        providers: [{ name: 'aws', version: '>= 5.0' }],
      },
    ]);
    expect(module.providers).toEqual(['aws']);
    expect(module.files).toEqual([
      'README.md',
      'main.tf',
      'modules/subnet/README.md',
      'modules/subnet/main.tf',
      'modules/subnet/outputs.tf',
      'modules/subnet/variables.tf',
      'modules/subnet/versions.tf',
      'outputs.tf',
      'tests/network.tftest.hcl',
      'variables.tf',
      'versions.tf',
    ]);
    expect(module.tests).toEqual([
      { path: 'tests/network.tftest.hcl', text: readme('network/tests/network.tftest.hcl') },
    ]);
  });
});

describe('storage fixture', () => {
  it('reads buckets with lifecycle rules, a heredoc policy, moved and check blocks, two providers', async () => {
    const module = await ingestFixture('storage');
    expect(module.root).toEqual({
      path: '',
      readme: readme('storage/README.md'),
      empty: false,
      inputs: [
        input('bucket_prefix', 'string', 'Prefix of every bucket name; a random suffix keeps names unique.'),
        input(
          'buckets',
          'map(object({ versioning = optional(bool, true), lifecycle_rules = optional(list(object({ id = string, prefix = optional(string, ""), expiration_days = optional(number), transition_days = optional(number), storage_class = optional(string, "STANDARD_IA") })), []) }))',
          // a `<<-` heredoc: indentation removed, the final newline kept
          'Buckets to create, keyed by name.\nEach bucket is versioned unless versioning = false, and its lifecycle\nrules expire or transition objects under a prefix.\n',
          { main: {} },
        ),
        input('force_destroy', 'bool', 'Whether buckets are deleted with the objects in them.', false),
        {
          ...input('kms_key_arn', 'string', 'KMS key for server-side encryption; null uses S3-managed keys.'),
          required: false,
          sensitive: true,
        },
        input('tags', 'map(string)', 'Tags added to every bucket.', {}),
      ],
      outputs: [
        output('bucket_arns', 'Bucket ARNs, keyed by bucket key.'),
        output('bucket_names', 'Bucket names, keyed by bucket key.'),
        output('kms_key_arn', 'The KMS key the buckets are encrypted with, if any.', true),
      ],
      dependencies: [],
      resources: [
        { name: 'this', type: 'aws_s3_bucket' },
        { name: 'this', type: 'aws_s3_bucket_lifecycle_configuration' },
        { name: 'tls_only', type: 'aws_s3_bucket_policy' },
        { name: 'this', type: 'aws_s3_bucket_server_side_encryption_configuration' },
        { name: 'this', type: 'aws_s3_bucket_versioning' },
        { name: 'suffix', type: 'random_id' },
      ],
      providers: [
        { name: 'aws', version: '~> 5.0' },
        { name: 'random', version: '>= 3.5' },
      ],
    });
    expect(module.submodules).toEqual([]);
    expect(module.providers).toEqual(['aws', 'random']);
    expect(module.tests.map((test) => test.path)).toEqual(['tests/storage.tftest.hcl']);
  });
});

describe('dns fixture', () => {
  it('reads records made by a module call with for_each over a map, and the record submodule', async () => {
    const module = await ingestFixture('dns');
    expect(module.root).toEqual({
      path: '',
      readme: readme('dns/README.md'),
      empty: false,
      inputs: [
        input('comment', 'string', 'Comment shown on the hosted zone.', 'Managed by Terraform'),
        input('private_zone', 'bool', 'Whether the zone is private to vpc_id.', false),
        input(
          'records',
          'map(object({ type = string, ttl = optional(number, 300), values = list(string) }))',
          'Records of the zone, keyed by name relative to the zone.',
          {},
        ),
        { ...input('vpc_id', 'string', 'VPC a private zone is attached to.'), required: false },
        input('zone_name', 'string', 'Domain name of the hosted zone, without the trailing dot.'),
      ],
      outputs: [
        output('name_servers', 'Name servers to delegate the domain to.'),
        output('record_fqdns', 'Fully qualified names of the records, keyed by record name.'),
        output('zone_id', 'ID of the hosted zone.'),
      ],
      dependencies: [{ name: 'record', source: './modules/record', version: '' }],
      resources: [{ name: 'this', type: 'aws_route53_zone' }],
      providers: [{ name: 'aws', version: '~> 5.0' }],
    });
    expect(module.submodules).toEqual([
      {
        path: 'modules/record',
        readme: readme('dns/modules/record/README.md'),
        empty: false,
        inputs: [
          input('name', 'string', 'Fully qualified name of the record.'),
          input('records', 'list(string)', 'Values of the record.'),
          input('ttl', 'number', 'Time to live, in seconds.', 300),
          input('type', 'string', 'Record type.'),
          input('zone_id', 'string', 'ID of the hosted zone the record belongs to.'),
        ],
        outputs: [output('fqdn', 'Fully qualified name of the record.')],
        dependencies: [],
        resources: [{ name: 'this', type: 'aws_route53_record' }],
        // no required_providers here: the provider is implied by the resource type, without a version
        providers: [{ name: 'aws', version: '' }],
      },
    ]);
    expect(module.providers).toEqual(['aws']);
    expect(module.tests.map((test) => test.path)).toEqual(['tests/dns.tftest.hcl']);
  });
});
