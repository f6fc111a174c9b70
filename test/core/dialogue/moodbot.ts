/** Rasa's classic mood bot as the NLU-based side of a coexistence assistant (rules, stories, checkpoints). */
export const MOODBOT_DOMAIN = `
  intents: [greet, goodbye, mood_great, mood_unhappy, affirm, deny, bot_challenge, inform, thanks]
  entities: [name]
  slots:
    route_session_to_calm:
      type: bool
      influence_conversation: false
    name:
      type: text
      mappings:
        - type: from_entity
          entity: name
  responses:
    utter_welcome:
      - text: Welcome! How are you?
    utter_greet:
      - text: Hey! How are you?
    utter_happy:
      - text: Great, carry on!
    utter_cheer_up:
      - text: Here is something to cheer you up.
    utter_did_that_help:
      - text: Did that help you?
    utter_goodbye:
      - text: Bye
    utter_iamabot:
      - text: I am a bot.
    utter_nice_to_meet:
      - text: Nice to meet you, {name}.
    utter_youre_welcome:
      - text: You are welcome.
    utter_anything_else:
      - text: Anything else?
`;

export const MOODBOT_FLOWS = `
  flows:
    unused:
      description: A flow so that the project has one.
      steps:
        - action: utter_goodbye
`;

export const MOODBOT_STORIES = `
  version: "3.1"
  stories:
    - story: happy path
      steps:
        - intent: greet
        - action: utter_greet
        - intent: mood_great
        - action: utter_happy
    - story: sad path
      steps:
        - intent: greet
        - action: utter_greet
        - intent: mood_unhappy
        - action: utter_cheer_up
        - action: utter_did_that_help
        - checkpoint: asked_if_it_helped
    - story: it helped
      steps:
        - checkpoint: asked_if_it_helped
        - or:
            - intent: affirm
            - intent: thanks
        - action: utter_happy
    - story: it did not help
      steps:
        - checkpoint: asked_if_it_helped
        - intent: deny
        - action: utter_goodbye
    - story: introduce yourself
      steps:
        - intent: inform
          entities:
            - name: Ana
        - slot_was_set:
            - name: Ana
        - action: utter_nice_to_meet
`;

export const MOODBOT_RULES = `
  version: "3.1"
  rules:
    - rule: welcome at the start of a conversation
      conversation_start: true
      steps:
        - intent: greet
        - action: utter_welcome
    - rule: say goodbye anytime
      steps:
        - intent: goodbye
        - action: utter_goodbye
    - rule: say that it is a bot, then go on talking
      steps:
        - intent: bot_challenge
        - action: utter_iamabot
        - action: utter_anything_else
      wait_for_user_input: true
    - rule: thank a known user
      condition:
        - slot_was_set:
            - name: Ana
      steps:
        - intent: thanks
        - action: utter_youre_welcome
`;
