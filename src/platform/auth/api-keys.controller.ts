import { Body, Controller, Delete, Get, HttpCode, Param, ParseUUIDPipe, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { RateLimit } from '../rate-limit/rate-limit.decorator';
import { ApiKeyService } from './api-key.service';
import { RequireScopes } from './auth.decorators';
import { ApiKeyResponse, CreatedApiKeyResponse } from './dto/api-key.response';
import { CreateApiKeyDto } from './dto/create-api-key.dto';

@ApiTags('api-keys')
@ApiSecurity('api-key')
@ApiBearerAuth()
@RequireScopes('admin')
@RateLimit('registry')
@Controller('api/keys')
export class ApiKeysController {
  constructor(private readonly keys: ApiKeyService) {}

  /** Creates a key. The response is the only place the key is ever shown. */
  @Post()
  async create(@Body() body: CreateApiKeyDto): Promise<CreatedApiKeyResponse> {
    const { key, record } = await this.keys.create({
      name: body.name,
      scopes: body.scopes,
      owner: body.owner,
      expiresAt: body.expires_at ? new Date(body.expires_at) : undefined,
    });
    return { ...record, key };
  }

  @Get()
  list(): Promise<ApiKeyResponse[]> {
    return this.keys.list();
  }

  @Get(':id')
  get(@Param('id', new ParseUUIDPipe()) id: string): Promise<ApiKeyResponse> {
    return this.keys.get(id);
  }

  /** Revokes the key on every replica at once; the record stays for audit. */
  @Delete(':id')
  @HttpCode(200)
  revoke(@Param('id', new ParseUUIDPipe()) id: string): Promise<ApiKeyResponse> {
    return this.keys.revoke(id);
  }
}
