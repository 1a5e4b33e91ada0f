// The sounds themselves, made here with the Web Audio API: oscillators and a burst of noise,
// shaped by gain envelopes. No sound files (nothing to fetch, no licence to track): every
// sound is these few lines, original to Tertulia.
//
// Each sound is a function (audio, out, at) that schedules its notes from time `at` on the
// AudioContext `audio`, into the node `out` (the master volume). Short (≤ 0.9 s) and soft.

const NOTE = { C5: 523.25, D5: 587.33, E5: 659.25, G4: 392.0, B4: 493.88, G5: 783.99, C6: 1046.5 };

/** One note: `hz` for `seconds`, a quick attack and a smooth fall; `type` the wave. */
function tone(audio, out, at, hz, seconds, { type = "sine", peak = 0.2 } = {}) {
  const osc = audio.createOscillator();
  const gain = audio.createGain();
  osc.type = type;
  osc.frequency.value = hz;
  gain.gain.setValueAtTime(0.001, at);
  gain.gain.exponentialRampToValueAtTime(peak, at + 0.02);
  gain.gain.exponentialRampToValueAtTime(0.001, at + seconds);
  osc.connect(gain).connect(out);
  osc.start(at);
  osc.stop(at + seconds + 0.05);
}

/** A short knock: filtered white noise over a falling low note (a marker put down). */
function knock(audio, out, at) {
  const length = Math.floor(audio.sampleRate * 0.06);
  const buffer = audio.createBuffer(1, length, audio.sampleRate);
  const data = buffer.getChannelData(0);
  for (let i = 0; i < length; i++) data[i] = (Math.random() * 2 - 1) * (1 - i / length) ** 2;
  const noise = audio.createBufferSource();
  noise.buffer = buffer;
  const band = audio.createBiquadFilter();
  band.type = "bandpass";
  band.frequency.value = 1800;
  const gain = audio.createGain();
  gain.gain.value = 0.35;
  noise.connect(band).connect(gain).connect(out);
  noise.start(at);
  const thud = audio.createOscillator();
  const thudGain = audio.createGain();
  thud.frequency.setValueAtTime(330, at);
  thud.frequency.exponentialRampToValueAtTime(180, at + 0.09);
  thudGain.gain.setValueAtTime(0.22, at);
  thudGain.gain.exponentialRampToValueAtTime(0.001, at + 0.1);
  thud.connect(thudGain).connect(out);
  thud.start(at);
  thud.stop(at + 0.12);
}

export const SOUNDS = {
  // Your turn: one clear beep (880 Hz, as before: the tests listen for it).
  turn: (audio, out, at) => tone(audio, out, at, 880, 0.25),
  // Time almost up: two lower beeps.
  hurry: (audio, out, at) => {
    tone(audio, out, at, 660, 0.12);
    tone(audio, out, at + 0.2, 660, 0.12);
  },
  // A clue given (or read out, or a drawing up for interpretation): a soft two-note chime.
  clue: (audio, out, at) => {
    tone(audio, out, at, NOTE.D5, 0.18, { type: "triangle", peak: 0.25 });
    tone(audio, out, at + 0.11, NOTE.G5, 0.3, { type: "triangle", peak: 0.25 });
  },
  // A marker, a guess or a drawing landing.
  land: (audio, out, at) => knock(audio, out, at),
  // A reveal: a quick rising arpeggio.
  reveal: (audio, out, at) => {
    [NOTE.G4, NOTE.B4, NOTE.D5, NOTE.G5].forEach((hz, i) => tone(audio, out, at + i * 0.07, hz, i === 3 ? 0.4 : 0.16, { type: "triangle", peak: 0.22 }));
  },
  // A win: a little fanfare, C E G C, the last held over a low C.
  win: (audio, out, at) => {
    [NOTE.C5, NOTE.E5, NOTE.G5, NOTE.C6].forEach((hz, i) => tone(audio, out, at + i * 0.11, hz, i === 3 ? 0.7 : 0.14, { type: "triangle", peak: 0.22 }));
    tone(audio, out, at + 0.33, NOTE.C5 / 2, 0.7, { peak: 0.15 });
  },
};
