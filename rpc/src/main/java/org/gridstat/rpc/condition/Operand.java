package org.gridstat.rpc.condition;

/** One side of a comparison: a number written in the condition, or a status variable's latest value. */
sealed interface Operand permits Operand.Literal, Operand.Variable {
    /** The value, or NaN if it is a variable without a sample: NaN makes every comparison false. */
    double read(StatusView view);

    /** @param text the number as written, for the words */
    record Literal(double value, String text) implements Operand {
        @Override
        public double read(StatusView view) {
            return value;
        }

        @Override
        public String toString() {
            return text;
        }
    }

    record Variable(String name) implements Operand {
        @Override
        public double read(StatusView view) {
            // value() is meaningless for an unknown variable, so it is not asked.
            return view.known(name) ? view.value(name) : Double.NaN;
        }

        @Override
        public String toString() {
            return name;
        }
    }
}
