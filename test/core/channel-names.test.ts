import { expect } from 'chai';
import { isKnownChannelName } from '../../src/core/channel-names.js';

describe('the channel names of credentials.yml', () => {
  it('knows the channels Parley ships', () => {
    for (const name of ['rest', 'callback', 'socketio'])
      expect(isKnownChannelName(name), name).to.equal(true);
  });

  it("knows Rasa's other built-in channels, so that a project using one is refused clearly", () => {
    for (const name of ['slack', 'telegram', 'twilio_voice', 'botframework', 'audiocodes_stream'])
      expect(isKnownChannelName(name), name).to.equal(true);
  });

  it('knows no misspelt, custom or module-path name', () => {
    for (const name of ['socketi0', 'REST', 'rest ', '', 'addons.channels.MyChannel'])
      expect(isKnownChannelName(name), JSON.stringify(name)).to.equal(false);
  });
});
