import { ConnectorEventFeedDto, ConnectorEventFeedQueryDto, EnvironmentPath } from '@app/domain';
import { ApiErrorResponses, CallerGone } from '@app/platform';
import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { ConnectorEventFeedService } from './connector-event-feed.service';

@ApiBearerAuth('bearer')
@ApiErrorResponses(400, 401, 403, 404, 410, 429, 500, 503)
@Controller('org/:orgUUID/env/:envUUID/connector-events')
export class ConnectorEventFeedController {
  constructor(private readonly feed: ConnectorEventFeedService) {}

  @Get()
  @ApiOperation({
    summary: "The environment's connector change events",
    description:
      'Every create, update, delete and restore of a connector of the environment, as CloudEvents 1.0, oldest first, in one order every reader sees. ' +
      "Follow it by sending the answer's `cursor` as `after`; with `wait`, an answer waits for the next event (a long poll). At least once: " +
      "deduplicate by the event's `id`. Per connector the versions come in order, without a gap. The same events go to NATS JetStream " +
      '(docs/asyncapi/connector-events.yaml).',
  })
  @ApiOkResponse({ type: ConnectorEventFeedDto, description: 'The events after the cursor, and the cursor to go on from' })
  connectorEvents(
    @Param() path: EnvironmentPath,
    @Query() query: ConnectorEventFeedQueryDto,
    @CallerGone() callerGone: AbortSignal,
  ): Promise<ConnectorEventFeedDto> {
    return this.feed.feed(path, query, callerGone);
  }
}
