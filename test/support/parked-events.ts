import { ParkedEventRepository } from '@app/domain';
import { strictFake } from './strict-fake';

/** The parking of a relay spec where nothing is held nor released: any other call fails the spec (strictFake). */
export function nothingHeld(): jest.Mocked<ParkedEventRepository> {
  const parking = strictFake(ParkedEventRepository);
  parking.heldAmong.mockResolvedValue(new Set());
  parking.releasedSizes.mockResolvedValue([]);
  return parking;
}
