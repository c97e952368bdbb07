import { ConnectorEventFeedDto, ConnectorEventFeedQueryDto, EnvironmentPath, EVENT_READ_BYTES } from '@app/domain';
import { Answer, AnswerHandle, ApiErrorResponses, CallerGone } from '@app/platform';
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
      '(docs/asyncapi/connector-events.yaml).\n\n' +
      `A page holds at most \`limit\` events and at most ${EVENT_READ_BYTES / 1024 / 1024} MiB of them (an event larger than that comes alone): a ` +
      'page with fewer events than `limit` may still have more after it; go on from its `cursor` until an answer is empty. Cursors are opaque ' +
      "(they say nothing of other tenants' writes) and belong to the environment's feed. The path is checked first: an environment outside " +
      'the organization, or a bot outside the environment, is a 404 whatever the query (before a 400 for its cursor or a 410). A 503 with ' +
      '`Retry-After` when this replica is busy reading other large pages.',
  })
  @ApiOkResponse({ type: ConnectorEventFeedDto, description: 'The events after the cursor, and the cursor to go on from' })
  connectorEvents(
    @Param() path: EnvironmentPath,
    @Query() query: ConnectorEventFeedQueryDto,
    @CallerGone() callerGone: AbortSignal,
    @Answer() answer: AnswerHandle,
  ): Promise<ConnectorEventFeedDto> {
    return this.feed.feed(path, query, callerGone, answer);
  }
}
