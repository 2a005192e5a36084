import type { AgentProfile } from '../../a2a/agent-profile';

/**
 * An agent as the router's tests describe it: a name and a line, and, given tags or examples, one
 * skill carrying them (a card with neither is a name and a line only, as many are).
 */
export function agentCard(
  id: string,
  name: string,
  description: string,
  tags: string[] = [],
  examples: string[] = [],
): AgentProfile {
  return {
    id,
    name,
    description,
    version: '1',
    kind: 'remote',
    skills: tags.length || examples.length ? [{ id, name, description, tags, examples }] : [],
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
  };
}

/** A skill of a card with several (its name is its id). */
export function cardSkill(name: string, description: string, tags: string[], examples: string[]) {
  return { id: name, name, description, tags, examples };
}

/**
 * A smart-home card whose plugs come near the appliances' requests without serving them, and a
 * one-line robot-vacuum card beside it: the robot serves floor cleaning, no agent the appliances.
 */
export const SMART_HOME_AND_ROBOT: AgentProfile[] = [
  {
    ...agentCard(
      'things',
      'SmartThings Home',
      'Samsung SmartThings for the whole house. Control lights, smart plugs, blinds and ceiling fans, and run your routines.',
    ),
    skills: [
      cardSkill(
        'Device control',
        'Turn devices on or off and set their level: bulbs, dimmers, plugs and switches.',
        ['lights', 'plug', 'switch', 'dimmer', 'on', 'off'],
        ['turn off the hallway light', 'switch on the coffee machine plug', 'set the desk lamp to 40%'],
      ),
      cardSkill(
        'Blinds and fans',
        'Open, close or stop motorised blinds and curtains; set ceiling fan speed.',
        ['blinds', 'curtains', 'shades', 'fan'],
        ['close the bedroom blinds', 'set the living room fan to high'],
      ),
      cardSkill(
        'Routines',
        'Run SmartThings routines and scenes such as Good Morning, Movie Time or Away.',
        ['routine', 'scene', 'automation'],
        ['run good night', 'start movie time'],
      ),
    ],
  },
  agentCard('robot', 'iRobot', 'Roomba robot vacuum and Braava mop.'),
];

/**
 * A car's card whose "Climatisation" skill and "seat heating" tag come near the heating, and a
 * one-line thermostat's card beside it: the heating is the thermostat's.
 */
export const CAR_AND_THERMOSTAT: AgentProfile[] = [
  {
    ...agentCard(
      'car',
      'Polestar',
      'Your Polestar 2, connected. See battery and range, get the cabin ready before you leave, and keep track of where it is.',
    ),
    skills: [
      cardSkill(
        'Battery and vehicle status',
        'State of charge, estimated range, whether it is plugged in, tyre pressures, doors, windows and odometer.',
        ['battery', 'range', 'charge level', 'tyres', 'doors', 'mileage'],
        ['how much range do I have', 'is the car plugged in', 'are the windows closed'],
      ),
      cardSkill(
        'Climatisation',
        'Pre-heat or pre-cool the cabin, heat the seats and steering wheel, defrost the windscreen.',
        ['pre-heat', 'precondition', 'defrost', 'seat heating', 'cabin'],
        ['warm up the car for 8:15', 'defrost the windscreen'],
      ),
    ],
  },
  agentCard(
    'thermostat',
    'Netatmo',
    'Smart Thermostat and Smart Radiator Valves. Save energy without sacrificing comfort.',
  ),
];

/**
 * The car and the thermostat (CAR_AND_THERMOSTAT) and a one-line EV charger's card: the car
 * charging is the charger's, though the car's card has "state of charge" and "charge level".
 */
export const CAR_THERMOSTAT_AND_CHARGER: AgentProfile[] = [
  ...CAR_AND_THERMOSTAT,
  agentCard('charger', 'zappi', "myenergi's eco-smart EV charger. Charge your car on sunshine."),
];
