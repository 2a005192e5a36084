import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { parseArgs } from 'node:util';
import { ApiKeyService } from '../platform/auth/api-key.service';
import { ApiKeyResponse } from '../platform/auth/dto/api-key.response';
import { CreateApiKeyDto } from '../platform/auth/dto/create-api-key.dto';
import { SCOPES } from '../platform/auth/scopes';
import { validationProblems } from '../platform/errors/validation-problems';
import { runCli, UsageError } from './run-cli';

const USAGE = `Usage:
  npm run keys -- create --name <name> --scopes <scope,...> [--owner <owner>] [--expires <ISO date | 30d | 12h>]
  npm run keys -- list [--json]
  npm run keys -- revoke <key id>

Scopes: ${SCOPES.join(', ')} (admin implies all).`;

runCli(USAGE, async (app) => {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: {
      name: { type: 'string' },
      scopes: { type: 'string' },
      owner: { type: 'string' },
      expires: { type: 'string' },
      json: { type: 'boolean', default: false },
    },
  });
  const keys = app.get(ApiKeyService);
  const [command, ...rest] = positionals;
  switch (command) {
    case 'create': {
      const input = createInput(values);
      const { key, record } = await keys.create({
        name: input.name,
        scopes: input.scopes,
        owner: input.owner,
        expiresAt: input.expires_at ? new Date(input.expires_at) : undefined,
      });
      process.stdout.write(`${describe(record)}\n\nKey (shown only now, store it safely):\n${key}\n`);
      return;
    }
    case 'list': {
      const all = await keys.list();
      process.stdout.write(values.json ? `${JSON.stringify(all, null, 2)}\n` : `${all.map(describe).join('\n')}\n`);
      return;
    }
    case 'revoke': {
      if (rest.length !== 1) throw new UsageError('revoke needs exactly one key id');
      process.stdout.write(`${describe(await keys.revoke(rest[0]))}\n`);
      return;
    }
    default:
      throw new UsageError(command ? `Unknown command: ${command}` : 'No command given');
  }
});

/** The same rules as POST /api/keys: the options become a CreateApiKeyDto and are validated as one. */
function createInput(values: { name?: string; scopes?: string; owner?: string; expires?: string }): CreateApiKeyDto {
  const dto = plainToInstance(CreateApiKeyDto, {
    name: values.name,
    scopes: (values.scopes ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
    owner: values.owner,
    expires_at: values.expires ? parseExpiry(values.expires) : undefined,
  });
  const problems = validationProblems(validateSync(dto));
  if (problems.length) throw new UsageError(problems.map((p) => `--${optionFor(p.field)}: ${p.reason}`).join('\n'));
  return dto;
}

function optionFor(field: string): string {
  return field === 'expires_at' ? 'expires' : field;
}

function parseExpiry(raw: string): string {
  const relative = /^(\d+)([dh])$/.exec(raw);
  const date = relative
    ? new Date(Date.now() + Number(relative[1]) * (relative[2] === 'd' ? 86_400_000 : 3_600_000))
    : new Date(raw);
  if (Number.isNaN(date.getTime()))
    throw new UsageError(`--expires must be an ISO date or like 30d / 12h, got "${raw}"`);
  return date.toISOString();
}

function describe(k: ApiKeyResponse): string {
  const expiry = k.expires_at ? ` expires ${k.expires_at}` : '';
  return `${k.id}  ${k.prefix}  ${k.status.padEnd(7)}  ${k.name} (owner ${k.owner})  [${k.scopes.join(', ')}]${expiry}`;
}
