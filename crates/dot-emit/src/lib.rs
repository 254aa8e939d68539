//! Turns a visible, styled graph into Graphviz DOT text: pure and deterministic, with every
//! piece of trace text escaped so it can never break or inject into the DOT.
//!
//! It is empty until the forward-drawing issue fills it.
