import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../../paths';
import { DESCRIPTOR_SET_BUILD, DESCRIPTOR_SET_FILE, DescriptorSet } from './descriptor-set';

const BUF = join(PROJECT_ROOT, 'node_modules/.bin/buf');

/** `buf build` of proto/ now, written to stdout. */
function bufBuild(): Promise<Buffer> {
  const args = DESCRIPTOR_SET_BUILD.map((arg, i, all) => (all[i - 1] === '-o' ? '-' : arg));
  return new Promise((resolve, reject) => {
    execFile(BUF, args, { cwd: PROJECT_ROOT, encoding: 'buffer', maxBuffer: 64 << 20 }, (error, stdout, stderr) =>
      error ? reject(new Error(`buf build failed: ${stderr.toString()}`)) : resolve(stdout),
    );
  });
}

describe('DescriptorSet (the reflection image buf builds from proto/)', () => {
  const set = DescriptorSet.load();

  it('is current: the checked-in image is what `buf build` makes of proto/ now', async () => {
    const upToDate = (await bufBuild()).equals(readFileSync(DESCRIPTOR_SET_FILE));
    const refresh = `npx buf ${DESCRIPTOR_SET_BUILD.join(' ')}`;
    expect({ upToDate, refresh }).toEqual({ upToDate: true, refresh });
  });

  it('declares our services, the A2A services the SDK serves, health and reflection', () => {
    expect(set.services().sort()).toEqual([
      'a2a.v1.A2AService',
      'grpc.health.v1.Health',
      'grpc.reflection.v1.ServerReflection',
      'grpc.reflection.v1alpha.ServerReflection',
      'lf.a2a.v1.A2AService',
      'switchboard.v1.RegistryService',
      'switchboard.v1.SystemService',
      'switchboard.v1.TaskService',
      'switchboard.v2.RegistryService',
      'switchboard.v2.SystemService',
      'switchboard.v2.TaskService',
    ]);
  });

  it('finds the file of every kind of symbol by its full name', () => {
    const file = (symbol: string) => set.bySymbol(symbol)?.name;
    expect(file('switchboard.v1.TaskService')).toBe('switchboard/v1/tasks.proto');
    expect(file('switchboard.v1.TaskService.WatchTaskTree')).toBe('switchboard/v1/tasks.proto');
    expect(file('.switchboard.v1.PushConfig.HeadersEntry')).toBe('switchboard/v1/tasks.proto');
    expect(file('switchboard.v1.Dependency.required')).toBe('switchboard/v1/tasks.proto');
    expect(file('lf.a2a.v1.TaskState')).toBe('lf/a2a/v1/a2a.proto');
    expect(file('lf.a2a.v1.TASK_STATE_COMPLETED')).toBe('lf/a2a/v1/a2a.proto');
    expect(file('google.protobuf.Struct')).toBe('google/protobuf/struct.proto');
    expect(file('google.rpc.ErrorInfo')).toBe('google/rpc/error_details.proto');
    expect(file('google.api.http')).toBe('google/api/annotations.proto');
    expect(file('switchboard.v1.Nope')).toBeUndefined();
  });

  it('answers a file with its imports, transitively, each once and the file first', () => {
    const files = set.withDependencies(set.byName('lf/a2a/v1/a2a.proto')!).map((f) => f.name);
    expect(files[0]).toBe('lf/a2a/v1/a2a.proto');
    expect(new Set(files).size).toBe(files.length);
    expect(files).toEqual(expect.arrayContaining(['google/api/http.proto', 'google/protobuf/descriptor.proto']));
  });

  it('indexes extensions by extendee and number', () => {
    expect(set.extensionNumbers('google.protobuf.MethodOptions')).toEqual([1051, 72295728]);
    expect(set.byExtension('.google.protobuf.FieldOptions', 1052)?.name).toBe('google/api/field_behavior.proto');
    expect(set.extensionNumbers('switchboard.v1.Task')).toBeUndefined();
  });
});
