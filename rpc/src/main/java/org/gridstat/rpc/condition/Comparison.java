package org.gridstat.rpc.condition;

/**
 * {@code a CMP b} over numbers and variables. False when a variable has no sample or either value
 * is NaN, for every operator, {@code !=} included: a value that cannot be read establishes
 * nothing.
 */
record Comparison(Operand left, Relation relation, Operand right) implements Node {
    @Override
    public boolean holds(StatusView view, long nowEpochNanos) {
        double l = left.read(view);
        if (Double.isNaN(l)) {
            return false;
        }
        double r = right.read(view);
        return !Double.isNaN(r) && relation.test(l, r);
    }

    @Override
    public String failure(StatusView view, long nowEpochNanos) {
        String missing = missing(left, view);
        if (missing == null) {
            missing = missing(right, view);
        }
        if (missing != null) {
            return OperatorWords.noSample(missing);
        }
        double l = left.read(view);
        double r = right.read(view);
        if (!Double.isNaN(l) && !Double.isNaN(r) && relation.test(l, r)) {
            return null;
        }
        return rendered() + " is false" + values(l, r);
    }

    private static String missing(Operand o, StatusView view) {
        return o instanceof Operand.Variable v && !view.known(v.name()) ? v.name() : null;
    }

    private String values(double l, double r) {
        boolean leftVariable = left instanceof Operand.Variable;
        boolean rightVariable = right instanceof Operand.Variable;
        if (leftVariable && rightVariable && !left.equals(right)) {
            return ": " + left + " is " + OperatorWords.number(l) + ", " + right + " is " + OperatorWords.number(r);
        }
        if (leftVariable) {
            return ": the value is " + OperatorWords.number(l);
        }
        if (rightVariable) {
            return ": the value is " + OperatorWords.number(r);
        }
        return "";
    }

    @Override
    public void render(StringBuilder out) {
        out.append(left).append(' ').append(relation.symbol()).append(' ').append(right);
    }
}
