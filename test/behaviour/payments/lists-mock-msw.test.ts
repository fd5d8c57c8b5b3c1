import { createMockGateway } from 'merchant-gateway/testing';
import { describe } from 'vitest';
import { BASE_URL, useMsw } from '../../support';
import { describeListsAgainstMock } from './lists-suite';

const mock = createMockGateway();
useMsw(...mock.handlers);

describe('both lists against the mock, in-process through msw', () => {
  describeListsAgainstMock({ mock, baseUrl: () => BASE_URL });
});
