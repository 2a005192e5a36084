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

/**
 * A lights card that names the rooms and a heating card with radiator thermostats in them, with
 * an energy meter and a rain radar beside them (as a Utrecht household wrote them): how warm a
 * room is belongs to the heating, though the lights' card names the room too.
 */
export const LIGHTS_AND_HEATING: AgentProfile[] = [
  {
    ...agentCard(
      'hue',
      'Philips Hue',
      "Hue Bridge with the lights in the living room, the open kitchen, the hall, the stairs, the bedroom, Fenna's room, the attic office and the string lights in the back garden, and two Hue smart plugs.",
    ),
    skills: [
      cardSkill(
        'Lights',
        'Switch lights on or off per room or all at once, dim or brighten them, set white from cool to warm or a colour.',
        ['lights', 'lamp', 'dim', 'brightness', 'colour', 'warm white', 'living room', 'kitchen', 'hall', 'garden'],
        ['turn off the lights in the hall', 'dim the bedroom to 20 percent', 'make the kitchen lights warm white'],
      ),
      cardSkill(
        'Scenes and routines',
        'Start the scenes Gezellig, Reading, Dinner and Nightlight, and the routines Good morning (lights slowly up in the bedroom) and Going to bed (everything downstairs off, a low light on the stairs).',
        ['scene', 'gezellig', 'reading', 'nightlight', 'good morning', 'going to bed', 'routine'],
        ['start the Gezellig scene', "nightlight in Fenna's room"],
      ),
      cardSkill(
        'Smart plugs',
        'Switch the Hue smart plugs on the Moccamaster coffee maker in the kitchen and on the Christmas tree, now or on a timer.',
        ['plug', 'smart plug', 'Moccamaster', 'coffee', 'Christmas tree', 'timer'],
        ['switch the coffee on', 'Christmas tree off at 11'],
      ),
    ],
  },
  {
    ...agentCard(
      'tado',
      'tado° Heating',
      "tado° Smart Thermostat X on the Remeha Calenta combi boiler (the CV) in the narrow terraced house of Sanne Visser and Bram de Groot in Lombok, Utrecht, with Smart Radiator Thermostats on the radiators in the living room with the open kitchen, the bedroom, Fenna's room and the attic office.",
    ),
    skills: [
      cardSkill(
        'Room temperature',
        "Set the temperature of a room, raise or lower it by a degree or two, switch a room's heating off, boost it for half an hour, and tell you how warm each room is now and what it is set to.",
        [
          'heating',
          'temperature',
          'thermostat',
          'radiator',
          'CV',
          'boiler',
          'warm',
          'degrees',
          'boost',
          'attic',
          'bedroom',
        ],
        ['set the living room to 20 degrees', 'turn the attic heating off', "how warm is it in Fenna's room"],
      ),
      cardSkill(
        'Schedule, home and away',
        'Switch between Home and Away, turn geofencing on or off, set a holiday period so the house stays at frost protection, and change the day and night schedule (when the heating starts in the morning and goes down at night).',
        ['schedule', 'away', 'home', 'geofencing', 'holiday', 'vacation', 'night', 'frost protection'],
        [
          'put the heating on away mode',
          "we're on holiday from Saturday to next Sunday",
          'start the heating at 6:30 on weekdays',
        ],
      ),
      cardSkill(
        'Air comfort and open windows',
        'Tell you the humidity in each room and whether the air is fresh, advise when to air a room, and report or clear an open window detected on a radiator thermostat.',
        ['humidity', 'air comfort', 'fresh air', 'ventilate', 'open window', 'mould'],
        ['how humid is the bedroom', 'is a window open somewhere'],
      ),
    ],
  },
  agentCard(
    'homewizard',
    'HomeWizard Energy',
    'HomeWizard P1 meter on the smart meter in the meter cupboard, a kWh meter on the solar panels and energy sockets under the washing machine and the dryer.',
  ),
  agentCard('buienradar', 'Buienradar', 'Rain radar and weather forecast for Utrecht.'),
];
