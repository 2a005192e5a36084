import { Controller, Delete, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiNoContentResponse, ApiOkResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, RequireScopes } from '../../platform/auth/auth.decorators';
import type { Principal } from '../../platform/auth/principal';
import { RateLimit } from '../../platform/rate-limit/rate-limit.decorator';
import { A2aTaskRecordsService } from './a2a-task-records.service';

/** The hub's A2A task records, for operators (scope `internal`). */
@ApiTags('internal')
@ApiSecurity('api-key')
@ApiBearerAuth()
@RequireScopes('internal')
@RateLimit('registry')
@Controller('internal/orchestration/tasks')
export class A2aTaskRecordsController {
  constructor(private readonly records: A2aTaskRecordsService) {}

  @Get(':taskId')
  @ApiOkResponse({ description: 'The persisted record (task, context, expiresAtUtc, etag), secrets redacted' })
  inspect(@Param('taskId') taskId: string) {
    return this.records.inspect(taskId);
  }

  @Post(':taskId/rehydrate')
  @HttpCode(202)
  @ApiOkResponse({ description: 'Reloaded and queued on this replica; 404 unknown, 409 finished/waiting/running' })
  async rehydrate(@Param('taskId') taskId: string, @CurrentPrincipal() principal: Principal) {
    return { ...(await this.records.rehydrate(taskId, principal)), status: 'enqueued' };
  }

  @Delete(':taskId')
  @HttpCode(204)
  @ApiNoContentResponse({ description: 'The record and its archive are gone' })
  async remove(@Param('taskId') taskId: string, @CurrentPrincipal() principal: Principal): Promise<void> {
    await this.records.remove(taskId, principal);
  }
}
