/**
 * The freight check (issue 21): what a carrier's dock inspection would rebill, said before
 * booking. Each rule is a coded warning with the line it concerns, the numbers it compared and the
 * price at stake: the same freight re-rated at the risk class or rule, beside the quoted price.
 * Thresholds come from InspectionRules (a carrier agreement's, else the defaults); re-rating goes
 * through a `Rerate` function so that whoever priced the quote (the tariff, an agreement) prices
 * the what-if too. Pure: no I/O. Sources of the defaults: docs/warnings.md.
 */
import { componentClass, componentDensity, decimalFraction, exactDensity, scaledWeightClass } from './density.js';
import type { InspectionRules } from './inspectionRules.js';
import { formatLimit } from './limits.js';
import { formatCents } from './money.js';
import { FREIGHT_CLASSES, type Dimensions, type FreightClass, type RatedOrderComponent } from './schemas.js';
import { warning, type PriceAtStake, type Warning } from './warnings.js';

/**
 * The price, in cents, of these components rated as the quote was (same lane, accessorials,
 * tariff or agreement), each at the class it carries; null when it cannot be priced.
 */
export type Rerate = (components: ReadonlyArray<RatedOrderComponent>) => number | null;

export interface FreightCheckInput {
  orderComponents: ReadonlyArray<RatedOrderComponent>;
  quotedPriceInCents: number;
  rules: InspectionRules;
  /** Without it the warnings have no price at stake. */
  rerate?: Rerate | undefined;
}

type Fraction = { numerator: bigint; denominator: bigint };

const CUBIC_INCHES_PER_CUBIC_FOOT = 1728;

/** Every warning of the check, line rules first (in line order), then the shipment's. */
export function checkFreight(input: FreightCheckInput): Warning[] {
  const lines = input.orderComponents.flatMap((component, index) => [
    ...densityMargin(input, component, index),
    ...nonStackableHeight(input, component, index),
    ...wideFreight(input, component, index),
    ...noDescription(input, component, index),
  ]);
  return [...lines, ...cubicCapacity(input), ...linearFeet(input), ...overlength(input)].map(withLinePrefix);
}

/** A line's warning says which line: `line 2: not stackable: ...` (LINE_PREFIX; a CSV names its own line instead). */
function withLinePrefix(item: Warning): Warning {
  return item.line === undefined ? item : { ...item, message: `line ${item.line + 1}: ${item.message}` };
}

/** The `line N: ` that starts a line's warning. */
export const LINE_PREFIX = /^line \d+: /;

// -----------------------------------------------------------------------------------------------
// Line rules

function densityMargin(input: FreightCheckInput, component: RatedOrderComponent, index: number): Warning[] {
  const { dimensionInches, weightPercent } = input.rules.densityMargin;
  const { poundsWeight, palletCount, dimensions } = component;
  const declared = component.freightClass;
  // Each variant's class first; its words and shown density only for the one named (most lines have none).
  type Variant = { side: 'height' | 'length' | 'width'; freightClass: FreightClass; dimensions: Dimensions } | { side: 'weight'; freightClass: FreightClass };
  // The variant of the highest class above the declared one; on a tie the first.
  let chosen: Variant | undefined;
  let chosenRank = rank(declared);
  // Height first: what a dimensioner most often reads larger (an overhang, a wrap); on a tie it is the one named.
  for (const side of ['height', 'length', 'width'] as const) {
    const larger = withLargerSide(dimensions, side, dimensionInches);
    const freightClass = componentClass(poundsWeight, palletCount, larger);
    if (rank(freightClass) > chosenRank) {
      chosen = { side, freightClass, dimensions: larger };
      chosenRank = rank(freightClass);
    }
  }
  const cut = decimalParts(weightPercent);
  // x (100 - p) / 100 with p = cut.numerator / cut.denominator
  const lighterClass = scaledWeightClass(poundsWeight, palletCount, dimensions, {
    numerator: Number(100n * cut.denominator - cut.numerator),
    denominator: Number(100n * cut.denominator),
  });
  if (rank(lighterClass) > chosenRank) chosen = { side: 'weight', freightClass: lighterClass };
  if (!chosen) return [];
  const worst =
    chosen.side === 'weight'
      ? {
          what: `${weightPercent} % less weight`,
          freightClass: chosen.freightClass,
          densityPcf: hundredthsDown(lighterDensity(poundsWeight, palletCount, dimensions, weightPercent)) / 100,
          dimensions,
          pounds: Math.round(poundsWeight * (1 - Number(weightPercent) / 100) * 100) / 100,
        }
      : {
          what: `${formatLimit(dimensionInches)} in more ${chosen.side}`,
          ...componentDensity(poundsWeight, palletCount, chosen.dimensions),
          dimensions: chosen.dimensions,
          pounds: poundsWeight,
        };
  const price = stakeOfLine(input, index, { freightClass: worst.freightClass }, `line ${index + 1} at class ${worst.freightClass}`);
  return [
    warning(
      'DENSITY_MARGIN',
      `${formatLimit(poundsWeight)} lb on ${palletCount === 1 ? '1 pallet' : `${formatLimit(palletCount)} pallets`} of ${size(dimensions)} is ${component.densityPcf.toFixed(2)} pcf, class ${declared}; with ${worst.what} (${formatLimit(worst.pounds)} lb on ${size(worst.dimensions)}) it is ${worst.densityPcf.toFixed(2)} pcf, class ${worst.freightClass}: a dimensioner or a scale that reads that much reclasses it${priceWords(price)}`,
      {
        line: index,
        field: `orderComponents[${index}]`,
        detail: {
          densityPcf: component.densityPcf,
          freightClass: declared,
          riskDensityPcf: worst.densityPcf,
          riskClass: worst.freightClass,
          changedBy: worst.what,
          marginInches: dimensionInches,
          marginWeightPercent: weightPercent,
        },
        ...(price ? { priceAtStake: price } : {}),
      },
    ),
  ];
}

/** The dimensions with one side `inches` larger. */
function withLargerSide({ length, width, height }: Dimensions, side: 'height' | 'length' | 'width', inches: number): Dimensions {
  return { length: side === 'length' ? length + inches : length, width: side === 'width' ? width + inches : width, height: side === 'height' ? height + inches : height };
}

function nonStackableHeight(input: FreightCheckInput, component: RatedOrderComponent, index: number): Warning[] {
  const rated = input.rules.nonStackableHeightInches;
  if (component.stackable !== false || component.dimensions.height >= rated) return [];
  const asRated = { ...component.dimensions, height: rated };
  const density = componentDensity(component.poundsWeight, component.palletCount, asRated);
  const price = stakeOfLine(input, index, { freightClass: density.freightClass }, `line ${index + 1} at ${formatLimit(rated)} in high, class ${density.freightClass}`);
  return [
    warning(
      'NON_STACKABLE_HEIGHT',
      `not stackable: carriers class it as ${formatLimit(rated)} in high (${size(asRated)}), ${density.densityPcf.toFixed(2)} pcf, class ${density.freightClass}, not ${formatLimit(component.dimensions.height)} in, class ${component.freightClass}${priceWords(price)}`,
      {
        line: index,
        field: `orderComponents[${index}].stackable`,
        detail: {
          heightInches: component.dimensions.height,
          ratedHeightInches: rated,
          freightClass: component.freightClass,
          riskDensityPcf: density.densityPcf,
          riskClass: density.freightClass,
        },
        ...(price ? { priceAtStake: price } : {}),
      },
    ),
  ];
}

function wideFreight(input: FreightCheckInput, component: RatedOrderComponent, index: number): Warning[] {
  const { fromInches, ratedWidthInches } = input.rules.wideFreight;
  const width = component.dimensions.width;
  if (width < fromInches || width >= ratedWidthInches) return [];
  const asRated = { ...component.dimensions, width: ratedWidthInches };
  const density = componentDensity(component.poundsWeight, component.palletCount, asRated);
  const price = stakeOfLine(input, index, { freightClass: density.freightClass }, `line ${index + 1} at ${formatLimit(ratedWidthInches)} in wide, class ${density.freightClass}`);
  return [
    warning(
      'WIDE_FREIGHT',
      `${formatLimit(width)} in wide (${formatLimit(fromInches)} in or more): carriers class it as ${formatLimit(ratedWidthInches)} in wide, ${density.densityPcf.toFixed(2)} pcf, class ${density.freightClass}, not class ${component.freightClass}${priceWords(price)}`,
      {
        line: index,
        field: `orderComponents[${index}].dimensions.width`,
        detail: { widthInches: width, fromInches, ratedWidthInches, freightClass: component.freightClass, riskDensityPcf: density.densityPcf, riskClass: density.freightClass },
        ...(price ? { priceAtStake: price } : {}),
      },
    ),
  ];
}

function noDescription(input: FreightCheckInput, component: RatedOrderComponent, index: number): Warning[] {
  if ((component.description ?? '').trim() !== '' || (component.nmfcCode ?? '').trim() !== '') return [];
  const inspectorClass = input.rules.noDescriptionClass as FreightClass;
  const riskClass = rank(inspectorClass) > rank(component.freightClass) ? inspectorClass : component.freightClass;
  const price = stakeOfLine(input, index, { freightClass: riskClass }, `line ${index + 1} at class ${riskClass}`);
  return [
    warning(
      'NO_DESCRIPTION',
      `no description and no NMFC code: an inspector may class it ${inspectorClass} (it is class ${component.freightClass} by density); describe it (desc=, nmfc=)${priceWords(price)}`,
      {
        line: index,
        field: `orderComponents[${index}].description`,
        detail: { freightClass: component.freightClass, inspectorClass, riskClass },
        ...(price ? { priceAtStake: price } : {}),
      },
    ),
  ];
}

// -----------------------------------------------------------------------------------------------
// Shipment rules

/**
 * The units as a carrier cubes them: a non-stackable unit (nothing can be loaded on top of it) at
 * `nonStackableHeightInches` when it is lower (Dugan item 650 B.1: 96 in), the others as declared.
 */
function asCubed(components: ReadonlyArray<RatedOrderComponent>, nonStackableHeightInches: number): ReadonlyArray<RatedOrderComponent> {
  if (!components.some((component) => component.stackable === false && component.dimensions.height < nonStackableHeightInches)) return components;
  return components.map((component) =>
    component.stackable === false && component.dimensions.height < nonStackableHeightInches
      ? { ...component, dimensions: { ...component.dimensions, height: nonStackableHeightInches } }
      : component,
  );
}

function cubicCapacity(input: FreightCheckInput): Warning[] {
  const { minimumCubicFeet, belowDensityPcf, ratedClass } = input.rules.cubicCapacity;
  const heightInches = input.rules.nonStackableHeightInches;
  const cubed = asCubed(input.orderComponents, heightInches);
  if (!takesCubicCapacity(cubed, minimumCubicFeet, belowDensityPcf)) return [];
  const raised = cubed !== input.orderComponents;
  const cube = exactCubicInches(cubed);
  const cubicFeet = Number(cube.numerator) / Number(cube.denominator) / CUBIC_INCHES_PER_CUBIC_FOOT;
  const totalPounds = totalWeight(input.orderComponents);
  const density = totalPounds / cubicFeet;
  const minimumPounds = Math.ceil(cubicFeet * Number(belowDensityPcf));
  // Dugan item 650 C.1: the constructed weight at class 125 (the rules' ratedClass), a minimum charge.
  const price = stakeOfMinimum(
    input,
    minimumPounds,
    ratedClass,
    `${formatLimit(round2(cubicFeet))} cu ft at ${belowDensityPcf} pcf: ${formatLimit(minimumPounds)} lb at class ${ratedClass}`,
  );
  return [
    warning(
      'CUBIC_CAPACITY',
      `the shipment takes ${formatLimit(round2(cubicFeet))} cu ft${raised ? ` (its non-stackable units cubed at ${formatLimit(heightInches)} in high)` : ''} at ${density.toFixed(2)} pcf (${formatLimit(minimumCubicFeet)} cu ft or more below ${belowDensityPcf} pcf): carriers charge it as if it weighed ${formatLimit(minimumPounds)} lb at class ${ratedClass}, or as volume LTL${priceWords(price)}`,
      {
        field: 'orderComponents',
        detail: {
          cubicFeet: round2(cubicFeet),
          densityPcf: round2(density),
          minimumCubicFeet,
          belowDensityPcf,
          minimumPounds,
          ratedClass,
          ...(raised ? { nonStackableHeightInches: heightInches } : {}),
        },
        ...(price ? { priceAtStake: price } : {}),
      },
    ),
  ];
}

/** Whether the shipment's cube is at least `minimumCubicFeet` and its density below `belowDensityPcf`, exactly. */
function takesCubicCapacity(components: ReadonlyArray<RatedOrderComponent>, minimumCubicFeet: number, belowDensityPcf: string): boolean {
  const minimumCube = decimalFraction(minimumCubicFeet);
  const pcf = decimalParts(belowDensityPcf);
  // cube >= minimum (both in cubic inches) and pounds x 1728 / cube < pcf
  const whole = wholeTotals(components);
  if (whole) {
    const cube = whole.cubicInches * Number(minimumCube.denominator);
    const minimum = CUBIC_INCHES_PER_CUBIC_FOOT * Number(minimumCube.numerator);
    const weight = whole.pounds * 1728 * Number(pcf.denominator);
    const bound = Number(pcf.numerator) * whole.cubicInches;
    // Products of non-negative whole numbers that are safe integers were computed exactly.
    if (Number.isSafeInteger(cube) && Number.isSafeInteger(minimum) && Number.isSafeInteger(weight) && Number.isSafeInteger(bound)) return cube >= minimum && weight < bound;
  }
  const cube = exactCubicInches(components);
  const pounds = exactSum(components.map((component) => decimalFraction(component.poundsWeight)));
  const bigEnough = cube.numerator * minimumCube.denominator >= BigInt(CUBIC_INCHES_PER_CUBIC_FOOT) * minimumCube.numerator * cube.denominator;
  const tooLight = pounds.numerator * 1728n * cube.denominator * pcf.denominator < pcf.numerator * cube.numerator * pounds.denominator;
  return bigEnough && tooLight;
}

/** The cubic inches and pounds of lines in whole pounds, pallets and inches (most freight), when both sums are safe integers; else undefined. */
function wholeTotals(components: ReadonlyArray<RatedOrderComponent>): { cubicInches: number; pounds: number } | undefined {
  let cubicInches = 0;
  let pounds = 0;
  for (const { palletCount, poundsWeight, dimensions } of components) {
    const { length, width, height } = dimensions;
    if (!isWhole(palletCount) || !isWhole(poundsWeight) || !isWhole(length) || !isWhole(width) || !isWhole(height)) return undefined;
    cubicInches += palletCount * length * width * height;
    pounds += poundsWeight;
  }
  return Number.isSafeInteger(cubicInches) && Number.isSafeInteger(pounds) ? { cubicInches, pounds } : undefined;
}

const isWhole = (value: number) => Number.isSafeInteger(value) && value >= 0;

/**
 * The inches of trailer floor the shipment takes: each line's units stacked (only when marked
 * stackable, as many high as fit under the trailer's height), the stacks side by side when their
 * widths fit across the trailer, each unit's length along it as declared.
 */
export function linearInches(components: ReadonlyArray<RatedOrderComponent>, rules: InspectionRules['linearFeet']): number {
  const positions: Array<{ along: number; across: number }> = [];
  for (const component of components) {
    const { length, width, height } = component.dimensions;
    const high = component.stackable === true ? Math.max(1, Math.floor(rules.trailerHeightInches / height)) : 1;
    const stacks = Math.ceil(component.palletCount / high);
    for (let stack = 0; stack < stacks; stack++) positions.push({ along: length, across: width });
  }
  positions.sort((a, b) => b.along - a.along);
  const placed = new Array<boolean>(positions.length).fill(false);
  let inches = 0;
  for (let first = 0; first < positions.length; first++) {
    if (placed[first]) continue;
    placed[first] = true;
    let across = positions[first]!.across;
    // Beside it: the next longest positions that still fit across the trailer.
    for (let next = first + 1; next < positions.length; next++) {
      if (!placed[next] && across + positions[next]!.across <= rules.trailerWidthInches) {
        placed[next] = true;
        across += positions[next]!.across;
      }
    }
    inches += positions[first]!.along;
  }
  return inches;
}

function linearFeet(input: FreightCheckInput): Warning[] {
  const rules = input.rules.linearFeet;
  const inches = linearInches(input.orderComponents, rules);
  if (inches <= rules.maximumFeet * 12) return [];
  const feet = round2(inches / 12);
  const minimumPounds = Math.ceil(feet * rules.minimumPoundsPerFoot);
  const price = stakeOfWeight(input, minimumPounds, `${formatLimit(feet)} ft at ${formatLimit(rules.minimumPoundsPerFoot)} lb per foot: ${formatLimit(minimumPounds)} lb`);
  return [
    warning(
      'LINEAR_FEET',
      `the shipment takes ${formatLimit(feet)} ft of trailer (over ${formatLimit(rules.maximumFeet)} ft): carriers rate it as volume LTL or as if it weighed ${formatLimit(rules.minimumPoundsPerFoot)} lb per foot (${formatLimit(minimumPounds)} lb); ask for a volume LTL or truckload quote${priceWords(price)}`,
      {
        field: 'orderComponents',
        detail: { linearFeet: feet, maximumFeet: rules.maximumFeet, trailerWidthInches: rules.trailerWidthInches, minimumPounds },
        ...(price ? { priceAtStake: price } : {}),
      },
    ),
  ];
}

function overlength(input: FreightCheckInput): Warning[] {
  const { fromInches, bandsFeet, feesInCents } = input.rules.overlength;
  let longest = 0;
  let line = -1;
  input.orderComponents.forEach((component, index) => {
    const side = Math.max(component.dimensions.length, component.dimensions.width);
    if (side > longest) {
      longest = side;
      line = index;
    }
  });
  if (line < 0 || longest < fromInches) return [];
  let band = 0;
  bandsFeet.forEach((feet, index) => {
    if (longest >= feet * 12) band = index;
  });
  const fee = feesInCents[band];
  const price: PriceAtStake | undefined =
    fee === undefined
      ? undefined
      : {
          quotedPriceInCents: input.quotedPriceInCents,
          atRiskPriceInCents: input.quotedPriceInCents + fee,
          differenceInCents: fee,
          basis: `overlength fee, ${formatLimit(bandsFeet[band]!)} ft band`,
        };
  return [
    warning(
      'OVERLENGTH',
      `a unit ${formatLimit(longest)} in long (${formatLimit(fromInches)} in or more): the carrier's overlength fee for the ${formatLimit(bandsFeet[band]!)} ft band applies${fee === undefined ? ' (the rules name no fee for it)' : ''}${priceWords(price)}`,
      {
        line,
        field: `orderComponents[${line}].dimensions`,
        detail: { lengthInches: longest, fromInches, bandFeet: bandsFeet[band]!, feeInCents: fee ?? null },
        ...(price ? { priceAtStake: price } : {}),
      },
    ),
  ];
}

// -----------------------------------------------------------------------------------------------
// Prices at stake

function stakeOfLine(input: FreightCheckInput, index: number, change: Partial<RatedOrderComponent>, basis: string): PriceAtStake | undefined {
  return stake(
    input,
    input.orderComponents.map((component, at) => (at === index ? { ...component, ...change } : component)),
    basis,
  );
}

/** The shipment rated as if it weighed `minimumPounds` (each line's weight raised in proportion, its class kept). */
function stakeOfWeight(input: FreightCheckInput, minimumPounds: number, basis: string): PriceAtStake | undefined {
  const total = totalWeight(input.orderComponents);
  const factor = minimumPounds > total ? minimumPounds / total : 1;
  return stake(
    input,
    input.orderComponents.map((component) => ({ ...component, poundsWeight: component.poundsWeight * factor })),
    basis,
  );
}

/**
 * A minimum charge: the shipment rated as if it weighed `minimumPounds` (each line's weight raised
 * in proportion), every line at `freightClass`; never below the quoted price.
 */
function stakeOfMinimum(input: FreightCheckInput, minimumPounds: number, freightClass: FreightClass, basis: string): PriceAtStake | undefined {
  const total = totalWeight(input.orderComponents);
  const factor = minimumPounds > total ? minimumPounds / total : 1;
  const atRisk = input.rerate?.(input.orderComponents.map((component) => ({ ...component, poundsWeight: component.poundsWeight * factor, freightClass })));
  if (atRisk === undefined || atRisk === null) return undefined;
  const charged = Math.max(atRisk, input.quotedPriceInCents);
  return { quotedPriceInCents: input.quotedPriceInCents, atRiskPriceInCents: charged, differenceInCents: charged - input.quotedPriceInCents, basis };
}

function stake(input: FreightCheckInput, components: RatedOrderComponent[], basis: string): PriceAtStake | undefined {
  const atRisk = input.rerate?.(components);
  if (atRisk === undefined || atRisk === null) return undefined;
  return { quotedPriceInCents: input.quotedPriceInCents, atRiskPriceInCents: atRisk, differenceInCents: atRisk - input.quotedPriceInCents, basis };
}

function priceWords(price: PriceAtStake | undefined): string {
  if (!price) return '';
  const difference = price.differenceInCents;
  const sign = difference > 0 ? '+' : difference < 0 ? '-' : '±';
  return ` (price at stake: ${formatCents(price.atRiskPriceInCents)} instead of ${formatCents(price.quotedPriceInCents)}, ${sign}${formatCents(Math.abs(difference))})`;
}

// -----------------------------------------------------------------------------------------------
// Numbers

function rank(freightClass: FreightClass): number {
  return FREIGHT_CLASSES.indexOf(freightClass);
}

function size(dimensions: Dimensions): string {
  return `${formatLimit(dimensions.length)}x${formatLimit(dimensions.width)}x${formatLimit(dimensions.height)} in`;
}

function round2(value: number): number {
  return Math.round(value * 100) / 100;
}

function totalWeight(components: ReadonlyArray<RatedOrderComponent>): number {
  return components.reduce((sum, component) => sum + component.poundsWeight, 0);
}

/** "2.5" as 25/10, exactly. */
function decimalParts(text: string): Fraction {
  // The texts are the rules' few settings: their parts are kept (BigInts from text cost, on every line of every check). Never changed by callers.
  const known = decimals.get(text);
  if (known) return known;
  const [whole = '0', fraction = ''] = text.split('.');
  const parts = { numerator: BigInt(whole + fraction), denominator: 10n ** BigInt(fraction.length) };
  if (decimals.size >= 64) decimals.clear();
  decimals.set(text, parts);
  return parts;
}
const decimals = new Map<string, Fraction>();

/** The exact density of a line whose weight is `percent` % lower. */
function lighterDensity(poundsWeight: number, palletCount: number, dimensions: Dimensions, percent: string): Fraction {
  const density = exactDensity(poundsWeight, palletCount, dimensions);
  const cut = decimalParts(percent);
  // x (100 - p) / 100 with p = cut.numerator / cut.denominator
  return { numerator: density.numerator * (100n * cut.denominator - cut.numerator), denominator: density.denominator * 100n * cut.denominator };
}

/** A density's whole hundredths, rounded down. */
function hundredthsDown(density: Fraction): number {
  return Number((density.numerator * 100n) / density.denominator);
}

function exactSum(parts: Fraction[]): Fraction {
  return parts.reduce((sum, part) => ({ numerator: sum.numerator * part.denominator + part.numerator * sum.denominator, denominator: sum.denominator * part.denominator }), {
    numerator: 0n,
    denominator: 1n,
  });
}

function exactCubicInches(components: ReadonlyArray<RatedOrderComponent>): Fraction {
  return exactSum(
    components.map((component) =>
      [component.palletCount, component.dimensions.length, component.dimensions.width, component.dimensions.height]
        .map(decimalFraction)
        .reduce((product, factor) => ({ numerator: product.numerator * factor.numerator, denominator: product.denominator * factor.denominator })),
    ),
  );
}
