// The actions of the marks beside the notes (layers.js): corner and centre marks switched
// on and off (a digit tapped then writes that mark; notes go off), the palette opened and
// closed, a colour picked (it paints the selected cell, or with candidate colouring on it
// is the colour the next digits tapped give their candidates; 0 clears), candidate
// colouring on and off. Each is said for screen readers. A colour paints every selected
// cell (selection.js) in one change.
//
// Imports the selected cells (selection.js) and the catalog's words (i18n.js): the model
// and the link are handed in.

import { gettext, interpolate } from "./i18n.js";
import { selectedCells } from "./selection.js";

const layerWords = (name) =>
  ({
    corner: gettext("Corner marks: a digit tapped goes along the cell's edge."),
    centre: gettext("Centre marks: a digit tapped goes small in the cell's middle."),
  })[name];

export function markActions(model, link) {
  const { marking } = model;
  const layer = (name) => {
    marking.layer = marking.layer === name ? null : name;
    marking.candidates = false;
    if (marking.layer) model.notesMode = false;
    model.say(marking.layer ? layerWords(name) : gettext("Digits again: a digit tapped is placed."));
    model.changed();
  };
  const palette = () => {
    marking.palette = !marking.palette;
    if (!marking.palette) marking.candidates = false;
    model.changed();
  };
  const candidates = () => {
    marking.candidates = !marking.candidates;
    marking.palette = marking.palette || marking.candidates;
    const words = gettext("Colour candidates: tap a digit to give it colour %(colour)s in the selected cell.");
    model.say(marking.candidates ? interpolate(words, { colour: marking.colour }) : gettext("Colours paint the selected cell again."));
    model.changed();
  };
  const pick = (colour) => {
    if (marking.candidates) {
      marking.colour = colour;
      const words = colour ? gettext("Colour %(colour)s: tap a digit to colour that candidate.") : gettext("Tap a digit to clear its candidate's colour.");
      model.say(interpolate(words, { colour }));
      return model.changed();
    }
    const { selected } = model;
    if (!model.canChange()) return;
    if (selected === null) return model.say(gettext("Choose a cell first, then its colour."));
    link.play({ kind: "mark", cells: selectedCells(model), layer: "colour", digit: 0, colour });
  };
  return {
    corner: () => layer("corner"),
    centre: () => layer("centre"),
    colour: palette,
    "colour-candidates": candidates,
    "colour-pick": pick,
  };
}
