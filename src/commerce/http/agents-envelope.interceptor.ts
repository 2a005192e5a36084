import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import type { Response } from 'express';
import { map, Observable } from 'rxjs';

/** `{"ok": true, "data": …}` around every agents.json API answer, as UTF-8 JSON. */
@Injectable()
export class AgentsEnvelopeInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    context.switchToHttp().getResponse<Response>().type('application/json; charset=utf-8');
    return next.handle().pipe(map((data: unknown) => ({ ok: true, data })));
  }
}
